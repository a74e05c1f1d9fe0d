// `import UserNotifications`, as an iOS app writes it beside `import UIKit`: the notification
// center (`UNUserNotificationCenter.current().delegate`), its delegate protocol and the
// response a tapped notification brings (docs/LIFECYCLE.md §3f). They live in the worker
// runtime, which `import UIKit` re-exports too; this module only lets the import compile.
@_exported import struct SceneWorker.DeliveredNotification
@_exported import struct SceneWorker.NotificationResponse
@_exported import typealias SceneWorker.UNNotification
@_exported import let SceneWorker.UNNotificationDefaultActionIdentifier
@_exported import typealias SceneWorker.UNNotificationResponse
@_exported import class SceneWorker.UNUserNotificationCenter
@_exported import protocol SceneWorker.UNUserNotificationCenterDelegate
