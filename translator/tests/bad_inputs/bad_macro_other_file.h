extern int total;
#define ADD_TOTAL(x) (total += (x))
