#include "api.h"

int other(int x) { return x + 1; }
