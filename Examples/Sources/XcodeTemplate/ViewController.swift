// swift-format-ignore-file
//
//  ViewController.swift
//  Xcode's iOS App template (storyboard interface). The port: `import UIKit` became
//  `import SceneWorker`.
//

import SceneWorker

class ViewController: UIViewController {

    override func viewDidLoad() {
        super.viewDidLoad()
        // Do any additional setup after loading the view.
    }


}
