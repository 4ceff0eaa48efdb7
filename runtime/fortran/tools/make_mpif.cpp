// Writes what Fortran programs built with bamboocc compile against:
//
//   bamboo-make-mpif > mpif.h           the handles numbered as the runtime's tables number
//       them (src/predefined.hpp), the MPI library's own integer constants, and the sentinels
//       as COMMON variables whose addresses the bindings recognise. Every line reads the same
//       in fixed and free form (statements from column 7, none past column 72), so that
//       `include 'mpif.h'` works in both;
//   bamboo-make-mpif fparser > mpif.h   the same without its one interface, for the
//       translator's parser (fparser reads Fortran 2008, and the interface declares a
//       Fortran 2018 assumed-type argument);
//   bamboo-make-mpif module > mpi.f90   the `mpi` module: mpif.h's declarations, and interfaces
//       for the routines that take a buffer, whose type and rank go unchecked (gfortran's
//       NO_ARG_CHECK, as Open MPI's module does), so that one routine takes buffers of every
//       type as MPI allows; gfortran checks the other arguments. The other routines stay
//       external, as through mpif.h.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../src/binding.hpp"
#include "../src/predefined.hpp"

namespace {

void parameter(const char* type, const char* name, long long value) {
    std::printf("      %s %s\n      parameter (%s=%lld)\n", type, name, name, value);
}

int index_of(std::size_t offset) { return static_cast<int>(offset / sizeof(MPI_Fint)) + 1; }

// The routines with buffers (any argument whose name ends in "buf" or "_addr", MPI_Get_address's
// location and a window's base), and their arguments, default integers unless marked: "(*)" marks an array,
// ":address" and ":offset" an INTEGER(KIND=MPI_ADDRESS_KIND) and (KIND=MPI_OFFSET_KIND).
const char* const kBufferRoutines[] = {
    "mpi_send buf count datatype dest tag comm ierror",
    "mpi_ssend buf count datatype dest tag comm ierror",
    "mpi_rsend buf count datatype dest tag comm ierror",
    "mpi_isend buf count datatype dest tag comm request ierror",
    "mpi_issend buf count datatype dest tag comm request ierror",
    "mpi_irsend buf count datatype dest tag comm request ierror",
    "mpi_irecv buf count datatype source tag comm request ierror",
    "mpi_recv buf count datatype source tag comm status(*) ierror",
    "mpi_sendrecv sendbuf sendcount sendtype dest sendtag recvbuf recvcount recvtype source recvtag comm "
    "status(*) ierror",
    "mpi_sendrecv_replace buf count datatype dest sendtag source recvtag comm status(*) ierror",
    "mpi_bcast buf count datatype root comm ierror",
    "mpi_reduce sendbuf recvbuf count datatype op root comm ierror",
    "mpi_allreduce sendbuf recvbuf count datatype op comm ierror",
    "mpi_scan sendbuf recvbuf count datatype op comm ierror",
    "mpi_exscan sendbuf recvbuf count datatype op comm ierror",
    "mpi_reduce_scatter sendbuf recvbuf recvcounts(*) datatype op comm ierror",
    "mpi_reduce_scatter_block sendbuf recvbuf recvcount datatype op comm ierror",
    "mpi_gather sendbuf sendcount sendtype recvbuf recvcount recvtype root comm ierror",
    "mpi_scatter sendbuf sendcount sendtype recvbuf recvcount recvtype root comm ierror",
    "mpi_gatherv sendbuf sendcount sendtype recvbuf recvcounts(*) displs(*) recvtype root comm ierror",
    "mpi_scatterv sendbuf sendcounts(*) displs(*) sendtype recvbuf recvcount recvtype root comm ierror",
    "mpi_allgather sendbuf sendcount sendtype recvbuf recvcount recvtype comm ierror",
    "mpi_alltoall sendbuf sendcount sendtype recvbuf recvcount recvtype comm ierror",
    "mpi_allgatherv sendbuf sendcount sendtype recvbuf recvcounts(*) displs(*) recvtype comm ierror",
    "mpi_alltoallv sendbuf sendcounts(*) sdispls(*) sendtype recvbuf recvcounts(*) rdispls(*) recvtype comm "
    "ierror",
    "mpi_send_init buf count datatype dest tag comm request ierror",
    "mpi_ssend_init buf count datatype dest tag comm request ierror",
    "mpi_rsend_init buf count datatype dest tag comm request ierror",
    "mpi_recv_init buf count datatype source tag comm request ierror",
    "mpi_ibcast buf count datatype root comm request ierror",
    "mpi_ireduce sendbuf recvbuf count datatype op root comm request ierror",
    "mpi_iallreduce sendbuf recvbuf count datatype op comm request ierror",
    "mpi_iscan sendbuf recvbuf count datatype op comm request ierror",
    "mpi_iexscan sendbuf recvbuf count datatype op comm request ierror",
    "mpi_ireduce_scatter sendbuf recvbuf recvcounts(*) datatype op comm request ierror",
    "mpi_ireduce_scatter_block sendbuf recvbuf recvcount datatype op comm request ierror",
    "mpi_igather sendbuf sendcount sendtype recvbuf recvcount recvtype root comm request ierror",
    "mpi_iscatter sendbuf sendcount sendtype recvbuf recvcount recvtype root comm request ierror",
    "mpi_igatherv sendbuf sendcount sendtype recvbuf recvcounts(*) displs(*) recvtype root comm request ierror",
    "mpi_iscatterv sendbuf sendcounts(*) displs(*) sendtype recvbuf recvcount recvtype root comm request ierror",
    "mpi_iallgather sendbuf sendcount sendtype recvbuf recvcount recvtype comm request ierror",
    "mpi_ialltoall sendbuf sendcount sendtype recvbuf recvcount recvtype comm request ierror",
    "mpi_iallgatherv sendbuf sendcount sendtype recvbuf recvcounts(*) displs(*) recvtype comm request ierror",
    "mpi_ialltoallv sendbuf sendcounts(*) sdispls(*) sendtype recvbuf recvcounts(*) rdispls(*) recvtype comm "
    "request ierror",
    "mpi_get_address location address:address ierror",
    "mpi_pack inbuf incount datatype outbuf outsize position comm ierror",
    "mpi_unpack inbuf insize position outbuf outcount datatype comm ierror",
    "mpi_file_read_at fh offset:offset buf count datatype status(*) ierror",
    "mpi_file_write_at fh offset:offset buf count datatype status(*) ierror",
    "mpi_file_read_at_all fh offset:offset buf count datatype status(*) ierror",
    "mpi_file_write_at_all fh offset:offset buf count datatype status(*) ierror",
    "mpi_file_read fh buf count datatype status(*) ierror",
    "mpi_file_write fh buf count datatype status(*) ierror",
    "mpi_file_read_all fh buf count datatype status(*) ierror",
    "mpi_file_write_all fh buf count datatype status(*) ierror",
    "mpi_win_create base size:address disp_unit info comm win ierror",
    "mpi_put origin_addr origin_count origin_datatype target_rank target_disp:address target_count "
    "target_datatype win ierror",
    "mpi_get origin_addr origin_count origin_datatype target_rank target_disp:address target_count "
    "target_datatype win ierror",
    "mpi_accumulate origin_addr origin_count origin_datatype target_rank target_disp:address target_count "
    "target_datatype op win ierror",
    "mpi_get_accumulate origin_addr origin_count origin_datatype result_addr result_count result_datatype "
    "target_rank target_disp:address target_count target_datatype op win ierror",
    "mpi_fetch_and_op origin_addr result_addr datatype target_rank target_disp:address op win ierror",
    "mpi_compare_and_swap origin_addr compare_addr result_addr datatype target_rank target_disp:address win "
    "ierror",
};

// Free-form lines, continued with & before 90 columns.
void free_form(const std::string& line) {
    std::string rest = line;
    while (rest.size() > 90) {
        std::size_t cut = rest.rfind(", ", 88) + 1;
        std::printf("%s &\n", rest.substr(0, cut).c_str());
        rest = "        " + rest.substr(cut + 1);
    }
    std::printf("%s\n", rest.c_str());
}

void write_module() {
    std::printf("! The mpi module of Bamboo (generated by runtime/fortran/tools/make_mpif.cpp)\n"
                "module mpi\n  implicit none\n  include 'mpif.h'\n  interface\n");
    for (const char* routine : kBufferRoutines) {
        std::istringstream words(routine);
        std::string name, word, dummies;
        std::vector<std::string> buffers;
        std::vector<std::pair<std::string, std::string>> declarations;  // type, its dummies
        words >> name;
        while (words >> word) {
            std::string kind = word.find(':') == std::string::npos ? "" : word.substr(word.find(':') + 1);
            word = word.substr(0, word.find(':'));
            std::string dummy = word.substr(0, word.find('('));
            dummies += (dummies.empty() ? "" : ", ") + dummy;
            auto ends_with = [&dummy](const char* end) {
                std::size_t n = std::strlen(end);
                return dummy.size() >= n && dummy.compare(dummy.size() - n, n, end) == 0;
            };
            if (ends_with("buf") || ends_with("_addr") || dummy == "location" || dummy == "base") {
                buffers.push_back(dummy);
                continue;
            }
            // The kinds' numbers: an interface body does not see mpif.h's parameters.
            std::string type = kind == "address" ? "integer(kind=" + std::to_string(sizeof(MPI_Aint)) + ")"
                               : kind == "offset" ? "integer(kind=" + std::to_string(sizeof(MPI_Offset)) + ")"
                                                  : "integer";
            auto same = std::find_if(declarations.begin(), declarations.end(),
                                     [&](const auto& declaration) { return declaration.first == type; });
            if (same == declarations.end())
                declarations.emplace_back(type, word);
            else
                same->second += ", " + word;
        }
        free_form("    subroutine " + name + "(" + dummies + ")");
        for (const std::string& buffer : buffers)
            std::printf("      !GCC$ ATTRIBUTES NO_ARG_CHECK :: %s\n      type(*), dimension(*) :: %s\n",
                        buffer.c_str(), buffer.c_str());
        for (const auto& [type, names] : declarations) free_form("      " + type + " :: " + names);
        std::printf("    end subroutine %s\n", name.c_str());
    }
    std::printf("  end interface\nend module mpi\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "module") == 0) {
        write_module();
        return 0;
    }
    const bool for_fparser = argc > 1 && std::strcmp(argv[1], "fparser") == 0;
    std::printf("! mpif.h of Bamboo (generated by runtime/fortran/tools/make_mpif.cpp)\n");
    std::printf("! Null handles are 0; predefined ones are numbered from 1 per kind.\n");
    parameter("integer", "MPI_COMM_NULL", 0);
    parameter("integer", "MPI_DATATYPE_NULL", 0);
    parameter("integer", "MPI_OP_NULL", 0);
    parameter("integer", "MPI_GROUP_NULL", 0);
    parameter("integer", "MPI_REQUEST_NULL", 0);
    parameter("integer", "MPI_ERRHANDLER_NULL", 0);
    parameter("integer", "MPI_INFO_NULL", 0);
    parameter("integer", "MPI_FILE_NULL", 0);
    parameter("integer", "MPI_WIN_NULL", 0);
    // Numbered per kind, as the tables are.
    {
        int n = 0;
#define BAMBOO_KIND(name) parameter("integer", #name, ++n);
        BAMBOO_FORTRAN_COMMS(BAMBOO_KIND)
        n = 0;
        BAMBOO_FORTRAN_DATATYPES(BAMBOO_KIND)
        n = 0;
        BAMBOO_FORTRAN_OPS(BAMBOO_KIND)
        n = 0;
        BAMBOO_FORTRAN_GROUPS(BAMBOO_KIND)
        n = 0;
        BAMBOO_FORTRAN_ERRHANDLERS(BAMBOO_KIND)
#undef BAMBOO_KIND
    }
#define BAMBOO_CONSTANT(name) parameter("integer", #name, name);
    BAMBOO_FORTRAN_CONSTANTS(BAMBOO_CONSTANT)
    parameter("integer", "MPI_STATUS_SIZE", bamboo::fortran::kStatusSize);
    parameter("integer", "MPI_SOURCE", index_of(offsetof(MPI_Status, MPI_SOURCE)));
    parameter("integer", "MPI_TAG", index_of(offsetof(MPI_Status, MPI_TAG)));
    parameter("integer", "MPI_ERROR", index_of(offsetof(MPI_Status, MPI_ERROR)));
    parameter("integer", "MPI_ADDRESS_KIND", sizeof(MPI_Aint));
    parameter("integer", "MPI_OFFSET_KIND", sizeof(MPI_Offset));
    parameter("integer", "MPI_INTEGER_KIND", sizeof(MPI_Fint));
    std::printf("      integer MPI_STATUS_IGNORE(MPI_STATUS_SIZE)\n"
                "      common /bamboo_fortran_status_ignore/ MPI_STATUS_IGNORE\n"
                "      integer MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)\n"
                "      common /bamboo_fortran_statuses_ignore/ MPI_STATUSES_IGNORE\n"
                "      integer MPI_IN_PLACE\n"
                "      common /bamboo_fortran_in_place/ MPI_IN_PLACE\n"
                "      integer MPI_BOTTOM\n"
                "      common /bamboo_fortran_bottom/ MPI_BOTTOM\n"
                "      double precision MPI_WTIME, MPI_WTICK\n"
                "      external MPI_WTIME, MPI_WTICK\n");
    // The firing rules bamboofort writes for `!$bamboo receive` (translator/bamboo/fortran/
    // directives.py) announce receive buffers of any type, and its comm directives
    // (comm_directives.py) transfer them: interfaces, unchecked as MPI's.
    if (for_fparser) return 0;
    std::printf("      interface\n"
                "      subroutine bamboo_expect_receive(b, n, t, s, g, c)\n"
                "!GCC$ ATTRIBUTES NO_ARG_CHECK :: b\n"
                "      type(*), dimension(*) :: b\n"
                "      integer n, t, s, g, c\n"
                "      end subroutine\n"
                "      subroutine bamboo_cd_transfer(sb, rb, n, f, t, s, r, g, w, l)\n"
                "!GCC$ ATTRIBUTES NO_ARG_CHECK :: sb, rb\n"
                "      type(*), dimension(*) :: sb, rb\n"
                "      integer n, f, t, g, l\n"
                "      logical s, r\n"
                "      character(*) w\n"
                "      end subroutine\n"
                "      end interface\n");
    return 0;
}
