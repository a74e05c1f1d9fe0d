print("hostctl")
