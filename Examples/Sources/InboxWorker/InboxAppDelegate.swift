import SceneWorker

final class InboxAppDelegate: ApplicationDelegate {}
