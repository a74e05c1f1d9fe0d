extension JSONValue {
    /// An object's member named `key`; nil when there is none or this is no object:
    /// `payload?["id"]`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// An array's element at `index`; nil when out of range or this is no array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
