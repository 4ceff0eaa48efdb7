// otf2_check ANCHOR: reads the OTF2 archive of a --bamboo-trace run with the second reader
// (otf2_read.hpp) and says what in it breaks OTF2's rules or Bamboo's mapping; exits 1 if
// anything does. On success it says how much it read.
#include <cstdio>
#include <string>
#include <vector>

#include "otf2_read.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: otf2_check DIR/traces.otf2\n");
        return 2;
    }
    otf2_read::Archive archive = otf2_read::read(argv[1]);
    std::vector<otf2_read::Pair> pairs;
    std::vector<std::string> problems = otf2_read::otf2_problems(archive, &pairs);
    for (const std::string& problem : otf2_read::bamboo_problems(archive)) problems.push_back(problem);
    for (const std::string& problem : problems) std::printf("otf2_check: %s\n", problem.c_str());
    if (!problems.empty()) return 1;
    std::size_t spans = 0;
    for (const auto& [location, events] : archive.events) {
        for (const otf2_read::Event& e : events) spans += e.type == otf2_read::Event::Type::enter;
    }
    std::printf("otf2_check: ok: %zu processes, %zu locations, %zu spans, %zu messages\n",
                archive.location_groups.size(), archive.locations.size(), spans, pairs.size());
    return 0;
}
