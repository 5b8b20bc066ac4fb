# Third-party libraries, all from Debian bookworm packages (scripts/debian-packages.txt).
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(GTest REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(TOMLPLUSPLUS REQUIRED IMPORTED_TARGET tomlplusplus)
# Shared by several areas and tests, so imported globally.
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET GLOBAL rdkafka)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET GLOBAL libxxhash)
find_package(nlohmann_json REQUIRED)
