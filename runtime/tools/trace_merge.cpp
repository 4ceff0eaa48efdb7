// bamboo-trace-merge DIRECTORY FILE: the trace of a job out of the parts its processes left in
// DIRECTORY (FILE.parts/ of --bamboo-trace FILE), written as FILE and FILE.otf2/ as a job that
// ends well writes them. bin/bamboo trace merge runs it; docs/tracing.md says when it is needed.
#include <cstdio>
#include <string>

#include "trace/merge.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s DIRECTORY FILE\n", argv[0]);
        return 2;
    }
    auto say = [](const std::string& line) { std::fprintf(stderr, "bamboo trace merge: %s\n", line.c_str()); };
    std::size_t parts = bamboo::trace::merge_trace(argv[1], argv[2], say);
    if (parts == 0) return 1;
    std::printf("%s: the trace of %zu process%s\n", argv[2], parts, parts == 1 ? "" : "es");
    return 0;
}
