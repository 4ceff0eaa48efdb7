C     Fixed form with Bamboo's directives (c$bamboo, *$bamboo) and
C     sequence numbers in columns 73-80, which the compiler ignores: a
C     ring exchange in an olap region, through mpif.h.
      PROGRAM FIXDIR                                                    FXD00004
      IMPLICIT NONE                                                     FXD00005
      INCLUDE 'mpif.h'                                                  FXD00006
      INTEGER IERR, RANK, NP, IT, LEFT, RIGHT, REQ                      FXD00007
      INTEGER MINE(4), GOT(4), TOTAL(4)                                 FXD00008
      CALL MPI_INIT(IERR)                                               FXD00009
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)                    FXD00010
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)                      FXD00011
      LEFT = MOD(RANK + NP - 1, NP)                                     FXD00012
      RIGHT = MOD(RANK + 1, NP)                                         FXD00013
      MINE = RANK                                                       FXD00014
      TOTAL = 0                                                         FXD00015
c$bamboo olap
      DO IT = 1, 5                                                      FXD00017
c$bamboo send
        CALL MPI_ISEND(MINE, 4, MPI_INTEGER, RIGHT, IT, MPI_COMM_WORLD, FXD00019
     &                 REQ, IERR)                                       FXD00020
*$bamboo receive
        CALL MPI_RECV(GOT, 4, MPI_INTEGER, LEFT, IT, MPI_COMM_WORLD,    FXD00022
     &                MPI_STATUS_IGNORE, IERR)                          FXD00023
        CALL MPI_WAIT(REQ, MPI_STATUS_IGNORE, IERR)                     FXD00024
        MINE = GOT + IT                                                 FXD00025
        TOTAL = TOTAL + GOT                                             FXD00026
      END DO                                                            FXD00027
      WRITE(*, '(A,I0,A,4I6)') 'rank ', RANK, ' total', TOTAL           FXD00028
      CALL MPI_FINALIZE(IERR)                                           FXD00029
      END                                                               FXD00030
