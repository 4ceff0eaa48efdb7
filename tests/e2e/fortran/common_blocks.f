C     Tests per-rank COMMON blocks, BLOCK DATA, SAVE, Send/Recv status.
      BLOCK DATA PINIT
      INTEGER NBASE, NSCALE
      DOUBLE PRECISION OFFSET
      COMMON /PARAMS/ NBASE, NSCALE, OFFSET
      DATA NBASE, NSCALE, OFFSET /500, 3, 0.25D0/
      END

      SUBROUTINE TICK(NOW)
      INTEGER NOW
      INTEGER ICOUNT
      SAVE ICOUNT
      INTEGER ISTEP
      DATA ICOUNT /0/, ISTEP /1/
      ICOUNT = ICOUNT + ISTEP
      ISTEP = ISTEP + 1
      NOW = ICOUNT
      END

      SUBROUTINE FILL(RANK)
      INTEGER RANK, I
      INTEGER IVAL
      DOUBLE PRECISION RARR(4)
      COMMON /STATE/ RARR, IVAL
      INTEGER NBASE, NSCALE
      DOUBLE PRECISION OFFSET
      COMMON /PARAMS/ NBASE, NSCALE, OFFSET
      IVAL = NBASE + NSCALE * RANK
      DO 10 I = 1, 4
         RARR(I) = RANK * I + OFFSET
   10 CONTINUE
      END

      PROGRAM CBLOCK
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IVAL
      DOUBLE PRECISION RARR(4)
      COMMON /STATE/ RARR, IVAL
      INTEGER NBASE, NSCALE
      DOUBLE PRECISION OFFSET
      COMMON /PARAMS/ NBASE, NSCALE, OFFSET
      INTEGER BLANKI
      DOUBLE PRECISION BLANKD
      COMMON BLANKD, BLANKI
      INTEGER RANK, NPROCS, IERR, I, K, NOW, CNT, SRC, TOTAL
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER MSG(64), SRCTAG(0:63), SRCCNT(0:63), SRCSUM(0:63)

      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      WRITE(*,'(A,I0,A,I0,1X,I0,1X,F6.2)') 'rank ', RANK,
     &     ' params ', NBASE, NSCALE, OFFSET
      CALL FILL(RANK)
      BLANKI = 7 * RANK
      BLANKD = 0.5D0 * RANK
      DO 20 I = 1, RANK + 2
         CALL TICK(NOW)
   20 CONTINUE

C     Ranks > 0 send RANK+1 integers to rank 0 with tag 10+RANK.
      IF (RANK .GT. 0) THEN
         DO 30 I = 1, RANK + 1
            MSG(I) = IVAL + I
   30    CONTINUE
         CALL MPI_SEND(MSG, RANK + 1, MPI_INTEGER, 0, 10 + RANK,
     &        MPI_COMM_WORLD, IERR)
      ELSE
         DO 40 K = 0, 63
            SRCTAG(K) = -1
            SRCCNT(K) = -1
            SRCSUM(K) = -1
   40    CONTINUE
         DO 60 K = 1, NPROCS - 1
            CALL MPI_RECV(MSG, 64, MPI_INTEGER, MPI_ANY_SOURCE,
     &           MPI_ANY_TAG, MPI_COMM_WORLD, STATUS, IERR)
            CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
            SRC = STATUS(MPI_SOURCE)
            SRCTAG(SRC) = STATUS(MPI_TAG)
            SRCCNT(SRC) = CNT
            SRCSUM(SRC) = 0
            DO 50 I = 1, CNT
               SRCSUM(SRC) = SRCSUM(SRC) + MSG(I)
   50       CONTINUE
   60    CONTINUE
         DO 70 K = 1, NPROCS - 1
            WRITE(*,'(A,I0,A,I0,A,I0,A,I0)') 'root got source ',
     &           K, ' tag ', SRCTAG(K), ' count ', SRCCNT(K),
     &           ' sum ', SRCSUM(K)
   70    CONTINUE
      END IF

C     Rank 0 replies to every other rank; they check the status.
      IF (RANK .EQ. 0) THEN
         DO 80 K = 1, NPROCS - 1
            MSG(1) = K * 11
            MSG(2) = IVAL
            CALL MPI_SEND(MSG, 2, MPI_INTEGER, K, 99, MPI_COMM_WORLD,
     &           IERR)
   80    CONTINUE
      ELSE
         CALL MPI_RECV(MSG, 64, MPI_INTEGER, 0, MPI_ANY_TAG,
     &        MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
         WRITE(*,'(A,I0,A,I0,A,I0,A,I0,A,I0,1X,I0)') 'rank ', RANK,
     &        ' reply source ', STATUS(MPI_SOURCE), ' tag ',
     &        STATUS(MPI_TAG), ' count ', CNT, ' data ', MSG(1), MSG(2)
      END IF

      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL TICK(NOW)
      TOTAL = 0
      CALL MPI_ALLREDUCE(BLANKI, TOTAL, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      WRITE(*,'(A,I0,A,I0,A,4F8.2)') 'rank ', RANK, ' ival ', IVAL,
     &     ' rarr ', RARR
      WRITE(*,'(A,I0,A,I0,A,F8.2,A,I0)') 'rank ', RANK, ' blanki ',
     &     BLANKI, ' blankd ', BLANKD, ' blanksum ', TOTAL
      WRITE(*,'(A,I0,A,I0)') 'rank ', RANK, ' tick ', NOW
      CALL MPI_FINALIZE(IERR)
      END
