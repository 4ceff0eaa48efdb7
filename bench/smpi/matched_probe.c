/* MPI_Improbe, MPI_Mrecv and MPI_Imrecv for SimGrid SMPI, which (3.32) aborts on them ("Not
 * yet implemented: PMPI_Improbe"). The Bamboo runtime's comm engine receives its control
 * messages with a matched probe so that no other thread can take a message between the
 * probe and the receive. Under SMPI the runtime runs single-threaded (--bamboo-single-thread)
 * and its control communicator is private, so a plain probe followed by a receive from the
 * probed source and tag gets the very message that was probed.
 *
 * Linked into the Bamboo variant with -Wl,--wrap=MPI_Improbe,--wrap=MPI_Mrecv,
 * --wrap=MPI_Imrecv, so the runtime's calls reach these functions while the runtime's source
 * stays as it is. */
#include <mpi.h>
#include <stdlib.h>

struct probed {
    int source, tag;
    MPI_Comm comm;
};

int __wrap_MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                       MPI_Status *status)
{
    MPI_Status own;
    if (status == MPI_STATUS_IGNORE)
        status = &own;
    int err = MPI_Iprobe(source, tag, comm, flag, status);
    if (err != MPI_SUCCESS || !*flag)
        return err;
    struct probed *m = malloc(sizeof *m);
    if (!m)
        return MPI_ERR_NO_MEM;
    m->source = status->MPI_SOURCE;
    m->tag = status->MPI_TAG;
    m->comm = comm;
    *message = m;
    return MPI_SUCCESS;
}

int __wrap_MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
                     MPI_Status *status)
{
    struct probed *m = *message;
    int err = MPI_Recv(buf, count, type, m->source, m->tag, m->comm, status);
    free(m);
    *message = MPI_MESSAGE_NULL;
    return err;
}

int __wrap_MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
                      MPI_Request *request)
{
    struct probed *m = *message;
    int err = MPI_Irecv(buf, count, type, m->source, m->tag, m->comm, request);
    free(m);
    *message = MPI_MESSAGE_NULL;
    return err;
}
