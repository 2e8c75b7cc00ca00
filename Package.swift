// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lanes",
    products: [
        .executable(name: "lanes", targets: ["lanes"]),
        .library(name: "DragKit", targets: ["DragKit"]),
        .library(name: "LanesCore", targets: ["LanesCore"]),
        .library(name: "LanesPostgres", targets: ["LanesPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .target(name: "DragKit"),
        .target(name: "SeededRandom"),
        // What tests (and the benchmarks) share: thread CPU clocks. No product module depends on it.
        .target(name: "TestSupport"),
        // A file's birth time (statx), which Glibc's Swift module does not declare.
        .systemLibrary(name: "CStatx", path: "Sources/CStatx"),
        .target(name: "LanesCore", dependencies: ["DragKit", "CStatx"]),
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // The runner's epoll descriptor (not curses: only CursesTerminal imports CNcursesw).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .target(name: "LanesTerminal", dependencies: ["LanesCore", "DragKit", "CNcursesw", "CEpoll"]),
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", providers: [.apt(["libpq-dev"])]),
        .target(name: "LanesPostgres", dependencies: ["LanesCore", "DragKit", "CLibPQ"]),
        // `lanes mcp`: the MCP server over stdio, on LanesCore's JSON (no SDK: DECISIONS 41.3).
        .target(name: "LanesAgent", dependencies: ["LanesCore", "DragKit"]),
        .executableTarget(
            name: "lanes",
            dependencies: [
                "LanesTerminal", "LanesCore", "LanesPostgres", "LanesAgent",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "lanes-bench",
            dependencies: [
                "LanesTerminal", "LanesCore", "LanesPostgres", "DragKit", "SeededRandom", "CLibPQ", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "DragKitTests", dependencies: ["DragKit"]),
        .testTarget(name: "LanesCoreTests", dependencies: ["LanesCore", "DragKit", "SeededRandom", "TestSupport"]),
        .testTarget(
            name: "LanesPostgresTests", dependencies: ["LanesPostgres", "LanesCore", "DragKit", "SeededRandom"]),
        .testTarget(
            name: "LanesTerminalTests",
            dependencies: ["LanesTerminal", "LanesCore", "DragKit", "SeededRandom", "TestSupport"],
            exclude: ["Fixtures"]),  // read from the source tree by path (scripts/gen-widths writes them)
    ],
    swiftLanguageModes: [.v6]
)
