//===- sdpa-ptx-emu.cpp - Check that PTX files parse for the emulator -----===//
//
//   sdpa-ptx-emu --parse FILE_OR_DIR...
//
// Parses every file (every *.ptx of a directory) and prints "FILE: ok (N
// kernels, M instructions)" or "FILE: line L: <first unsupported
// construct>". Exits 1 if any file fails.
//
//===----------------------------------------------------------------------===//

#include "PtxEmulator/Parser.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace sdpa::emu;

static bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

static std::vector<std::string> ptxFilesIn(const std::string &dir) {
  std::vector<std::string> files;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *entry = readdir(d)) {
      std::string name = entry->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".ptx") == 0)
        files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

int main(int argc, char **argv) {
  if (argc < 3 || std::strcmp(argv[1], "--parse") != 0) {
    std::fprintf(stderr, "usage: %s --parse FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    if (isDirectory(argv[i])) {
      std::vector<std::string> more = ptxFilesIn(argv[i]);
      files.insert(files.end(), more.begin(), more.end());
    } else {
      files.push_back(argv[i]);
    }
  }
  int failures = 0;
  for (const std::string &file : files) {
    std::ifstream in(file);
    if (!in) {
      std::printf("%s: cannot be read\n", file.c_str());
      ++failures;
      continue;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    Module module;
    std::string error;
    if (!parsePtx(buffer.str(), module, error)) {
      std::printf("%s: %s\n", file.c_str(), error.c_str());
      ++failures;
      continue;
    }
    size_t instructions = 0;
    for (const Kernel &k : module.kernels)
      instructions += k.code.size();
    std::printf("%s: ok (%zu kernels, %zu instructions)\n", file.c_str(),
                module.kernels.size(), instructions);
  }
  std::printf("%zu files, %d failed\n", files.size(), failures);
  return failures ? 1 : 0;
}
