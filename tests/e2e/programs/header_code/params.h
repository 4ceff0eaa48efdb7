/* Parameter defaults, included inside main as an adaptive-mesh code does. */
lgsize = 1 + rank % 3;
bias = bias * 10 + rank;
