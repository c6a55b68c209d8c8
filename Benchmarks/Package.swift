// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so the main package's builds and tests stay fast.
// Run: scripts/benchmark (builds tessera in release and runs every benchmark).
let package = Package(
    name: "tessera-benchmarks",
    products: [
        .executable(name: "tessera-benchmarks", targets: ["TesseraBenchmarks"]),
        .executable(name: "tessera-daemon-benchmark", targets: ["DaemonBenchmark"]),
        .executable(name: "tessera-board-benchmark", targets: ["BoardBenchmark"]),
        .executable(name: "tessera-solver-benchmark", targets: ["SolverBenchmark"]),
        .executable(name: "tessera-analysis-benchmark", targets: ["AnalysisBenchmark"]),
        .executable(name: "tessera-batch-benchmark", targets: ["BatchBenchmark"]),
        .executable(name: "tessera-picture-benchmark", targets: ["PictureBenchmark"]),
    ],
    dependencies: [
        // With PostgreSQL, so the board and daemon benchmarks can measure it beside SQLite.
        .package(name: "tessera", path: "..", traits: ["PostgreSQL"]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The board benchmark copies its SQLite history into PostgreSQL (GRDB reads, postgres-nio's COPY writes).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // The main package's test servers, which it does not ship as a product: the same files, through a symlink.
        .target(
            name: "TesseraTestSupport",
            dependencies: [
                .product(name: "TesseraCoreTesting", package: "tessera"),
                .product(name: "TesseraHTTP", package: "tessera"),
            ],
            path: "Sources/TesseraTestSupport",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
        .executableTarget(
            name: "TesseraBenchmarks",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraCoreTesting", package: "tessera"),
                .product(name: "TesseraEngine", package: "tessera"),
                .product(name: "TesseraTesting", package: "tessera"),
            ]
        ),
        .executableTarget(
            name: "PictureBenchmark",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraPictures", package: "tessera"),
            ]
        ),
        .executableTarget(
            name: "SolverBenchmark",
            dependencies: [.product(name: "TesseraCore", package: "tessera")]
        ),
        .executableTarget(
            name: "AnalysisBenchmark",
            dependencies: [.product(name: "TesseraCore", package: "tessera"), "TesseraTestSupport"]
        ),
        .executableTarget(
            name: "DaemonBenchmark",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraHTTP", package: "tessera"),
                "TesseraTestSupport",
            ]
        ),
        .executableTarget(
            name: "BoardBenchmark",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraCoreTesting", package: "tessera"),
                .product(name: "TesseraEngine", package: "tessera"),
                .product(name: "TesseraSQLite", package: "tessera"),
                .product(name: "TesseraPostgres", package: "tessera"),
                "TesseraTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .executableTarget(
            name: "BatchBenchmark",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraEngine", package: "tessera"),
                .product(name: "TesseraSQLite", package: "tessera"),
                .product(name: "TesseraPostgres", package: "tessera"),
                "TesseraTestSupport",
                .product(name: "Logging", package: "swift-log"),
                // The link's own round trip, on a connection of its own: the baseline, whatever the store's build.
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            exclude: ["BatchPath-before.swift.txt"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
