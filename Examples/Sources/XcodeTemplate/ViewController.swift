// swift-format-ignore-file
//
//  ViewController.swift
//  Xcode's iOS App template (storyboard interface), comments shortened, as generated.
//

import UIKit

class ViewController: UIViewController {

    override func viewDidLoad() {
        super.viewDidLoad()
        // Do any additional setup after loading the view.
    }


}
