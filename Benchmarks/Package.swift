// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so the main package's builds and tests stay fast.
// Run: scripts/benchmark (builds tessera in release and runs both benchmarks).
let package = Package(
    name: "tessera-benchmarks",
    products: [
        .executable(name: "tessera-benchmarks", targets: ["TesseraBenchmarks"]),
        .executable(name: "tessera-daemon-benchmark", targets: ["DaemonBenchmark"]),
    ],
    dependencies: [
        .package(name: "tessera", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "TesseraBenchmarks",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraCoreTesting", package: "tessera"),
            ]
        ),
        .executableTarget(
            name: "DaemonBenchmark",
            dependencies: [
                .product(name: "TesseraCore", package: "tessera"),
                .product(name: "TesseraHTTP", package: "tessera"),
                .product(name: "TesseraTestSupport", package: "tessera"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
