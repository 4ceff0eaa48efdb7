#include "trace/filter.hpp"

#include <cerrno>
#include <cstdlib>

namespace bamboo::trace {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> pieces;
    for (std::size_t at = 0;;) {
        std::size_t end = text.find(separator, at);
        pieces.push_back(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
        if (end == std::string_view::npos) return pieces;
        at = end + 1;
    }
}

// "A..B" into its ends ("" where one is left out); nullopt if there is no "..".
std::optional<std::pair<std::string_view, std::string_view>> range(std::string_view text) {
    std::size_t dots = text.find("..");
    if (dots == std::string_view::npos) return std::nullopt;
    return std::make_pair(text.substr(0, dots), text.substr(dots + 2));
}

std::optional<double> seconds(std::string_view text) {
    std::string copy(text);
    char* end = nullptr;
    errno = 0;
    double value = std::strtod(copy.c_str(), &end);
    if (copy.empty() || *end != '\0' || errno != 0 || !(value >= 0)) return std::nullopt;
    return value;
}

std::optional<int> rank(std::string_view text) {
    std::string copy(text);
    char* end = nullptr;
    errno = 0;
    long value = std::strtol(copy.c_str(), &end, 10);
    if (copy.empty() || *end != '\0' || errno != 0 || value < 0 || value > std::numeric_limits<int>::max())
        return std::nullopt;
    return static_cast<int>(value);
}

constexpr std::pair<const char*, Kind> kKinds[] = {{"task", Kind::task},     {"idle", Kind::idle},
                                                   {"wait", Kind::wait},     {"engine", Kind::engine},
                                                   {"message", Kind::message}, {"rma", Kind::rma}};

bool parse_clause(std::string_view key, std::string_view value, Filter& filter, std::string* error) {
    if (key == "time") {
        auto ends = range(value);
        std::optional<double> from = ends && !ends->first.empty() ? seconds(ends->first) : std::optional<double>(0);
        std::optional<double> to = ends && !ends->second.empty() ? seconds(ends->second) : std::optional<double>(filter.to);
        if (!ends || !from || !to || *from >= *to) {
            *error = "time=" + std::string(value) + ": not a window of seconds FROM..TO with FROM < TO (time=2..3, time=2..)";
            return false;
        }
        filter.from = *from;
        filter.to = *to;
        return true;
    }
    if (key == "kinds") {
        filter.kinds = 0;
        for (std::string_view name : split(value, '+')) {
            unsigned found = 0;
            for (const auto& [known, kind] : kKinds)
                if (name == known) found = static_cast<unsigned>(kind);
            if (!found) {
                *error = "kinds=" + std::string(value) + ": '" + std::string(name) +
                         "' is not one of task, idle, wait, engine, message, rma";
                return false;
            }
            filter.kinds |= found;
        }
        return true;
    }
    if (key == "ranks") {
        for (std::string_view piece : split(value, '+')) {
            auto ends = range(piece);
            std::optional<int> first = rank(ends ? ends->first : piece), last = rank(ends ? ends->second : piece);
            if (!first || !last || *first > *last) {
                *error = "ranks=" + std::string(value) + ": '" + std::string(piece) +
                         "' is not a rank or a range of ranks FIRST..LAST (ranks=0..3+8)";
                return false;
            }
            filter.ranks.emplace_back(*first, *last);
        }
        return true;
    }
    *error = "'" + std::string(key) + "' is not one of time, kinds, ranks";
    return false;
}

}  // namespace

std::optional<Filter> parse_filter(std::string_view spec, std::string* error) {
    Filter filter;
    filter.spec = spec;
    for (std::string_view clause : split(spec, ',')) {
        std::size_t equals = clause.find('=');
        if (equals == std::string_view::npos) {
            *error = "'" + std::string(clause) + "' is not KEY=VALUE (time=FROM..TO, kinds=K+K, ranks=R+R..R)";
            return std::nullopt;
        }
        if (!parse_clause(clause.substr(0, equals), clause.substr(equals + 1), filter, error)) return std::nullopt;
    }
    return filter;
}

}  // namespace bamboo::trace
