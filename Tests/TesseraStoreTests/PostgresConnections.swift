#if PostgreSQL
    import Logging
    import PostgresNIO
    import TesseraPostgres

    extension PostgresGameStore.Configuration {
        /// A connection of its own to the store's database, for a test that reads the tables as they are.
        func connection() async throws -> PostgresConnection {
            try await PostgresConnection.connect(
                configuration: .init(
                    host: host, port: port, username: user, password: password, database: database, tls: .disable),
                id: 1, logger: Logger(label: "test"))
        }
    }
#endif
