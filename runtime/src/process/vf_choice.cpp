#include "process/vf_choice.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

namespace bamboo {
namespace {

constexpr int kFirstGuess = 4;
constexpr int kLatencyRounds = 50;
constexpr int kBandwidthRounds = 4;
constexpr int kBandwidthBytes = 256 << 10;
constexpr int kMeasureTag = 7;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double transfer_seconds(double bytes, double messages, const NetworkCost& network) {
    if (network.bandwidth_Bps <= 0) return 0;
    return messages * network.latency_s + bytes / network.bandwidth_Bps;
}

std::string seconds_text(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g s", s);
    return text;
}

}  // namespace

double predicted_wall(int vf, int cores, double compute_s, double exposure, double transfer_s) {
    double compute = compute_s;
    double workers = std::min(cores, vf);
    // k = vf / workers tasks per worker: compute / (workers * k) = compute / vf.
    return std::max(compute / workers, exposure * transfer_s + compute / vf);
}

VfChoice choose_vf(const std::vector<int>& candidates, const std::vector<RunRecord>& history,
                   const NetworkCost& network, int cores) {
    VfChoice choice;
    if (history.empty()) {
        choice.vf = candidates.front();
        for (int vf : candidates)
            if (std::abs(vf - kFirstGuess) < std::abs(choice.vf - kFirstGuess) ||
                (std::abs(vf - kFirstGuess) == std::abs(choice.vf - kFirstGuess) && vf < choice.vf))
                choice.vf = vf;
        choice.reason = "VF " + std::to_string(choice.vf) +
                        ": no earlier runs to learn from, so the candidate nearest " +
                        std::to_string(kFirstGuess) + "; this run's measurements refine the next choice";
        return choice;
    }

    // Compute per process against VF: a least-squares line where runs differ in VF.
    double n = 0, sum_vf = 0, sum_c = 0, sum_vf2 = 0, sum_vfc = 0, least_compute = history[0].compute_s;
    for (const RunRecord& r : history) {
        n += 1;
        sum_vf += r.vf;
        sum_c += r.compute_s;
        sum_vf2 += double(r.vf) * r.vf;
        sum_vfc += r.vf * r.compute_s;
        least_compute = std::min(least_compute, r.compute_s);
    }
    double spread = n * sum_vf2 - sum_vf * sum_vf;
    double slope = spread > 1e-9 ? (n * sum_vfc - sum_vf * sum_c) / spread : 0.0;
    double intercept = (sum_c - slope * sum_vf) / n;

    // Exposure: how much of each run's modelled transfer time showed in its wall time. A run
    // whose wall time is its compute time hid all of it and says nothing about how much.
    std::vector<double> exposures;
    for (const RunRecord& r : history) {
        double transfer = transfer_seconds(r.remote_bytes, r.remote_messages, r.network);
        double compute_bound = r.compute_s / std::min(r.workers, r.vf);
        if (transfer <= 0 || r.wall_s < 1.05 * compute_bound) continue;
        exposures.push_back((r.wall_s - r.compute_s / r.vf) / transfer);
    }
    double exposure = exposures.empty() ? 0.0 : std::min(10.0, median(exposures));

    std::map<int, std::vector<double>> measured;
    for (const RunRecord& r : history) measured[r.vf].push_back(r.wall_s);

    double best_time = 0;
    bool chosen = false, best_measured = false;
    std::string detail;
    for (int vf : candidates) {
        // The traffic of the nearest recorded VF, priced by today's network.
        const RunRecord* nearest = &history[0];
        for (const RunRecord& r : history)
            if (std::abs(r.vf - vf) < std::abs(nearest->vf - vf)) nearest = &r;
        double transfer = transfer_seconds(nearest->remote_bytes, nearest->remote_messages, network);
        auto found = measured.find(vf);
        bool is_measured = found != measured.end();
        // Fewer, larger tasks may also be faster (caches): the fitted line may fall, but not
        // below half the least compute measured.
        double compute = std::max(intercept + slope * vf, 0.5 * least_compute);
        double time = is_measured ? median(found->second)
                                  : predicted_wall(vf, cores, compute, exposure, transfer);
        detail += (detail.empty() ? "" : ", ") + std::to_string(vf) + ": " + seconds_text(time) +
                  (is_measured ? " measured" : " predicted");
        if (!chosen || time < best_time) {
            chosen = true;
            choice.vf = vf;
            best_time = time;
            best_measured = is_measured;
        }
    }
    choice.reason = "VF " + std::to_string(choice.vf) + " (" + (best_measured ? "best measured" : "best predicted") +
                    "; " + detail + "; " + std::to_string(history.size()) + " earlier runs)";
    return choice;
}

std::vector<RunRecord> read_profile(const std::string& path, const std::string& key) {
    std::vector<RunRecord> records;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::size_t tab = line.find('\t');
        if (line.empty() || line[0] == '#' || tab == std::string::npos || line.substr(0, tab) != key)
            continue;
        RunRecord r;
        if (std::sscanf(line.c_str() + tab + 1,
                        "vf=%d workers=%d wall=%lf compute=%lf remote_bytes=%lf remote_messages=%lf "
                        "latency=%lf bandwidth=%lf",
                        &r.vf, &r.workers, &r.wall_s, &r.compute_s, &r.remote_bytes, &r.remote_messages,
                        &r.network.latency_s, &r.network.bandwidth_Bps) == 8 &&
            r.vf >= 1 && r.workers >= 1)
            records.push_back(r);
    }
    return records;
}

bool append_profile(const std::string& path, const std::string& key, const RunRecord& r) {
    bool fresh = !std::ifstream(path).good();
    std::FILE* out = std::fopen(path.c_str(), "a");
    if (!out) return false;
    if (fresh)
        std::fprintf(out, "# Bamboo's measurements for --bamboo-vf auto: one run per line, "
                          "per process (times in seconds, bandwidth in bytes/s)\n");
    std::fprintf(out,
                 "%s\tvf=%d workers=%d wall=%.6g compute=%.6g remote_bytes=%.6g remote_messages=%.6g "
                 "latency=%.6g bandwidth=%.6g\n",
                 key.c_str(), r.vf, r.workers, r.wall_s, r.compute_s, r.remote_bytes, r.remote_messages,
                 r.network.latency_s, r.network.bandwidth_Bps);
    return std::fclose(out) == 0;
}

NetworkCost measure_network(int process, int process_count) {
    double measured[2] = {0, 0};
    if (process_count > 1 && process <= 1) {
        int peer = 1 - process;
        std::vector<char> buffer(kBandwidthBytes);
        auto exchange = [&](int bytes, int rounds) {
            double start = MPI_Wtime();
            for (int i = 0; i < rounds; ++i) {
                if (process == 0) {
                    MPI_Send(buffer.data(), bytes, MPI_BYTE, peer, kMeasureTag, MPI_COMM_WORLD);
                    MPI_Recv(buffer.data(), bytes, MPI_BYTE, peer, kMeasureTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(buffer.data(), bytes, MPI_BYTE, peer, kMeasureTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buffer.data(), bytes, MPI_BYTE, peer, kMeasureTag, MPI_COMM_WORLD);
                }
            }
            return (MPI_Wtime() - start) / rounds / 2;  // one way
        };
        exchange(8, 5);  // connections are set up lazily: not part of the measurement
        double latency = exchange(8, kLatencyRounds);
        double one_way = exchange(kBandwidthBytes, kBandwidthRounds);
        measured[0] = latency;
        measured[1] = kBandwidthBytes / std::max(one_way - latency, 1e-9);
    }
    MPI_Bcast(measured, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return NetworkCost{measured[0], measured[1]};
}

}  // namespace bamboo
