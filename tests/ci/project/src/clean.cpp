// Nothing to report.
int twice(int x) { return 2 * x; }
