package bench

// SpareThreads is spareThreads, for the tests of package bench_test.
var SpareThreads = spareThreads
