#include "bad_included_code_defaults.h"
steps = DEFAULT_STEPS;
