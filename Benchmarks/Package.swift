// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so the main package's builds and tests stay fast.
// Run: swift run -c release --package-path Benchmarks tessera-benchmarks
let package = Package(
    name: "tessera-benchmarks",
    products: [
        .executable(name: "tessera-benchmarks", targets: ["TesseraBenchmarks"])
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
        )
    ],
    swiftLanguageModes: [.v6]
)
