// swift-tools-version:6.2
import PackageDescription

// One list for every target, as Hummingbird does.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "tessera",
    products: [
        .executable(name: "tessera", targets: ["TesseraCLI"]),
        .library(name: "TesseraCore", targets: ["TesseraCore"]),
        .library(name: "TesseraCoreTesting", targets: ["TesseraCoreTesting"]),
        .library(name: "TesseraTesting", targets: ["TesseraTesting"]),
        .library(name: "TesseraHTTP", targets: ["TesseraHTTP"]),
        .library(name: "TesseraEngine", targets: ["TesseraEngine"]),
        .library(name: "TesseraPictures", targets: ["TesseraPictures"]),
        .library(name: "TesseraRuntime", targets: ["TesseraRuntime"]),
        .library(name: "TesseraSQLite", targets: ["TesseraSQLite"]),
        .library(name: "TesseraPostgres", targets: ["TesseraPostgres"]),
    ],
    traits: [
        // PostgreSQL as the store (TesseraPostgres): off by default, so that default builds need not build
        // SwiftNIO and postgres-nio. Build with `swift build --traits PostgreSQL`.
        .trait(name: "PostgreSQL", description: "A PostgreSQL store, for deployments that outgrow one machine")
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // HKDF and HMAC for the buttons' tags: a key derived for them alone (postgres-nio brings it too).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // postgres-nio's own TLS, named for the one connection that migrates (with the PostgreSQL trait only).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Operations (issue 27): the runtime counts with swift-metrics; the executable exports them in
        // Prometheus's text format and serves them, with /healthz, on Hummingbird (an opt-in listener).
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Hummingbird's own; named for the listener's connection deadline, a channel handler.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // swift-configuration's file provider takes a FilePath (swift-configuration brings it too).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // The game: scoring, rules, word lists, daily schedule, share text, statistics. No I/O, no clock,
        // no randomness of its own, no dependencies.
        .target(
            name: "TesseraCore",
            // The word lists' reviewed inputs, answer editions and build report: read by scripts/build-wordlists.
            exclude: ["WordLists/Inputs", "WordLists/Editions", "WordLists/REPORT.md"],
            // Optimised in debug builds too: the daemon analyses every finished game with the solver, which is
            // some forty times slower unoptimised (forty seconds a game), in tests and `scripts/run` alike.
            swiftSettings: swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Slow, obviously correct oracles and seeded randomness for tests and benchmarks.
        .target(name: "TesseraCoreTesting", dependencies: ["TesseraCore"], swiftSettings: swiftSettings),
        // Turns chat messages into game actions and replies; owns the storage and transport protocols.
        .target(
            name: "TesseraEngine",
            dependencies: [
                "TesseraCore",
                // The pictures' values (a result card, a chart, a day card): the engine says which to send.
                "TesseraPictures",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The running bot: one small `Service` per job (receiving, sending, closing days, the heartbeat,
        // leadership) for each platform, run in one `ServiceGroup`.
        .target(
            name: "TesseraRuntime",
            dependencies: [
                "TesseraCore",
                "TesseraEngine",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The SQL both stores share: a query written once (its binds collected, rendered in each dialect), the
        // session each store implements over its connection, and every portable statement, by role.
        .target(name: "TesseraSQL", dependencies: ["TesseraCore", "TesseraEngine"], swiftSettings: swiftSettings),
        // The embedded default store: SQLite through GRDB.
        .target(
            name: "TesseraSQLite",
            dependencies: [
                "TesseraCore",
                "TesseraEngine",
                "TesseraSQL",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for reading large boards column by column without per-value overhead.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // The store's own maintenance (its checkpoints) as a service of the bot's group.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // libcurl, with typed shims for its variadic functions.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The system zlib (libcurl's own dependency on Debian), for the pictures' PNG compression.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Pictures drawn in the process: a value (a board, a distribution, a group's day) in, PNG bytes out.
        // Knows no platform; letters come from a glyph atlas generated once from DejaVu Sans Bold.
        .target(
            name: "TesseraPictures", dependencies: ["TesseraCore", "CZlib"], exclude: ["DejaVu-LICENSE"],
            swiftSettings: swiftSettings),
        // The store on PostgreSQL, for several machines on one database: its code compiles only with the
        // PostgreSQL trait, which brings postgres-nio.
        .target(
            name: "TesseraPostgres",
            dependencies: [
                "TesseraCore",
                "TesseraEngine",
                "TesseraSQL",
                // The runtime's Leadership, which PostgreSQL provides: one process leads each platform.
                "TesseraRuntime",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // glibc's malloc tuned before main (two heap arenas): linked into the executable only.
        .target(name: "CMalloc"),
        // An async HTTP client on libcurl: blocking transfers on their own queues.
        .target(name: "TesseraHTTP", dependencies: ["CCurl"], swiftSettings: swiftSettings),
        // The Telegram Bot API as a chat transport.
        .target(
            name: "TesseraTelegram",
            dependencies: [
                "TesseraEngine", "TesseraHTTP", "TesseraPictures", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Matrix Client-Server API as a chat transport.
        .target(
            name: "TesseraMatrix",
            dependencies: [
                "TesseraEngine", "TesseraHTTP", "TesseraPictures", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The terminal chat as a chat transport: what a newcomer plays without a bot token.
        .target(
            name: "TesseraConsole",
            dependencies: [
                "TesseraEngine", "TesseraPictures",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Servers on loopback for tests (Tests/Servers): the fake Bot API, Synapse, PostgreSQL. No product: the
        // benchmarks compile it through a symlink.
        .target(
            name: "TesseraTestSupport", dependencies: ["TesseraCoreTesting", "TesseraHTTP"],
            swiftSettings: swiftSettings),
        // The test kit for code built on the engine: a manual clock, a scripted transport, a store that fails
        // on demand; no processes, no sleeps as synchronisation.
        .target(
            name: "TesseraTesting",
            dependencies: [
                "TesseraEngine",
                "TesseraRuntime",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The `tessera` command: the only place that wires things together.
        .executableTarget(
            name: "TesseraCLI",
            dependencies: [
                "CMalloc",
                "TesseraConsole",
                "TesseraCore",
                "TesseraEngine",
                "TesseraHTTP",
                "TesseraMatrix",
                "TesseraPictures",
                .target(name: "TesseraPostgres", condition: .when(traits: ["PostgreSQL"])),
                "TesseraRuntime",
                "TesseraSQLite",
                "TesseraTelegram",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings,
            // Release builds link with lld and pack their relative relocations (DT_RELR, glibc 2.36 and later):
            // the loader reads 40 kB of them instead of 2.8 MB, and the daemon's resident memory is 5 MB less.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .testTarget(
            name: "TesseraCoreTests",
            dependencies: ["TesseraCore", "TesseraCoreTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TesseraEngineTests",
            // SQLite only as the store the engine runs on in its tests (TestStore.swift), through GameStore.
            dependencies: [
                "TesseraCore", "TesseraEngine", "TesseraPictures", "TesseraSQLite", "TesseraCoreTesting",
                "TesseraTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Each of the runtime's services alone, and together, on the test kit's clock.
        .testTarget(
            name: "TesseraRuntimeTests",
            dependencies: [
                "TesseraCore", "TesseraEngine", "TesseraRuntime", "TesseraSQLite", "TesseraTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // What only SQLite does: its files, durability, checkpoints, migrations from older schemas, and its
        // transactions held across suspensions.
        .testTarget(
            name: "TesseraSQLiteTests",
            dependencies: [
                "TesseraCore", "TesseraEngine", "TesseraSQLite", "TesseraTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // One suite of store behaviour for every store: SQLite always, PostgreSQL with its trait.
        .testTarget(
            name: "TesseraStoreTests",
            dependencies: [
                "TesseraCore", "TesseraEngine", "TesseraSQL", "TesseraSQLite", "TesseraTesting", "TesseraTestSupport",
                .target(name: "TesseraPostgres", condition: .when(traits: ["PostgreSQL"])),
                // Errors straight from the server, to check how the store classifies them.
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
                // Each dialect's schema read as it is, to compare the two.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The pictures decoded again, pixel by pixel: by zlib here, and by an independent decoder in Python.
        .testTarget(
            name: "TesseraPicturesTests",
            dependencies: ["TesseraPictures", "TesseraCore", "CZlib", "TesseraTestSupport"],
            // Golden PNGs, read by path.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TesseraHTTPTests",
            dependencies: ["TesseraHTTP", "TesseraTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TesseraTelegramTests",
            dependencies: [
                "TesseraTelegram", "TesseraCore", "TesseraEngine", "TesseraHTTP", "TesseraPictures",
                "TesseraTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TesseraMatrixTests",
            dependencies: [
                "TesseraMatrix", "TesseraCore", "TesseraEngine", "TesseraHTTP", "TesseraPictures", "TesseraTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TesseraCLITests",
            // Depending on the executable makes `swift test` build the `tessera` binary these tests run.
            dependencies: [
                "TesseraCLI", "TesseraConsole", "TesseraCore", "TesseraCoreTesting", "TesseraEngine", "TesseraPictures",
                "TesseraRuntime", "TesseraSQLite", "TesseraTestSupport", "TesseraTesting",
                // To read what tessera backup wrote.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // To parse a command's options as the command line would.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
