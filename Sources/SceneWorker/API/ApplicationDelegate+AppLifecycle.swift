extension ApplicationDelegate {
    /// Does nothing.
    public func applicationDidBecomeActive(_ application: Application) {}

    /// Does nothing.
    public func applicationWillResignActive(_ application: Application) {}

    /// Does nothing.
    public func applicationDidEnterBackground(_ application: Application) {}

    /// Does nothing.
    public func applicationWillEnterForeground(_ application: Application) {}

    /// Returns `false`: nothing is saved.
    public func application(_ application: Application, shouldSaveSecureApplicationState coder: NSCoder) -> Bool {
        false
    }

    /// Returns `false`.
    public func application(_ application: Application, shouldRestoreSecureApplicationState coder: NSCoder) -> Bool {
        false
    }
}
