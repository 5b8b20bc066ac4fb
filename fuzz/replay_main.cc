// The entry point of a fuzz target when it is built without libFuzzer (g++, the normal build):
// runs LLVMFuzzerTestOneInput once on every file named, or every file under every folder named
// (only those ending in SUFFIX after `--suffix SUFFIX`, for folders of mixed files).
// `make test` replays the committed seed corpus and every past crash this way, under ASan in the
// sanitizer build, so a regression fails a test instead of waiting for the next fuzzing run.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool RunFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t inputs = 0;
  std::string suffix;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--suffix" && i + 1 < argc) {
      suffix = argv[++i];
      continue;
    }
    std::filesystem::path arg(argv[i]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file() && entry.path().string().ends_with(suffix)) files.push_back(entry.path());
      }
    } else {
      files.push_back(arg);
    }
    for (const auto& file : files) {
      if (!RunFile(file)) return 1;
      ++inputs;
    }
  }
  std::printf("replay: %zu inputs, no crash\n", inputs);
  // An empty corpus proves nothing: fail so a lost seed folder is noticed.
  return inputs == 0 ? 1 : 0;
}
