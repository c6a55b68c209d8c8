import TesseraEngine
import TesseraSQLite

/// The store the engine's tests run on. They use it only through ``GameStore``, so any store would do; the
/// stores' own behaviour is checked store by store in `Tests/TesseraStoreTests`.
enum TestStore {
    static func make() throws -> any GameStore { try SQLiteGameStore.inMemory() }
}
