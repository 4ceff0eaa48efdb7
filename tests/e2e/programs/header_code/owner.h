/* A graph code's ownership macros: they read globals the program defines. */
extern int lgsize;
extern long bias;
struct shard { int lgsize; };
#define VERTEX_OWNER(v) ((int)((v) >> lgsize))
#define OWNER_PLUS(v, k) (VERTEX_OWNER(v) + (k) + (int)bias)
#define SHARD_BITS(s) ((s).lgsize)            /* a member of that name stays the member */
#define SHIFTED(lgsize) ((lgsize) << 1)       /* so does a parameter */
