// The model's public types (HostConfiguration, SceneOperation, TraceEvent, …) are part of this
// library's API: a user imports HostProcess alone.
import SceneModel
@_exported import SceneModel
