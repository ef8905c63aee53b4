#pragma once
/// Process-wide settings every BHPM executable applies at start-up.

namespace bhpm::cli {

/// Keeps freed memory in the process instead of returning it to the kernel
/// (mallopt M_MMAP_MAX = 0, M_TRIM_THRESHOLD = -1): tensors freed every step otherwise
/// cost millions of page faults per run. Also pins OpenBLAS to one thread: inside ATen's
/// OpenMP regions its own OpenMP threads oversubscribe the cores. And asks ATen for its
/// AVX-512 kernels where the CPU has AVX-512 (ATEN_CPU_CAPABILITY=avx512 unless the
/// environment sets it; ATen otherwise stops at AVX2). Each effect is measured in
/// docs/training.md, "Speed of training".
void configure_process();

/// The most threads `--threads` and OMP_NUM_THREADS may ask for.
constexpr int kMaxThreads = 1 << 16;

/// The cores this process may use: OMP_NUM_THREADS when it starts with an integer > 0
/// (a batch scheduler's or the user's choice; OpenMP's list form "4,2" gives 4), else the
/// CPUs of the process's affinity mask (what `taskset`, cgroups' cpusets or a scheduler's
/// allocation leave it), else the machine's core count; at least 1.
int available_cores();

/// available_cores(), at most the limit of limit_threads().
int default_threads();

/// Sets ATen's intra-op threads: `threads` > 0 as given, 0 = default_threads(). ATen starts with
/// one thread here (omp_get_max_threads() is 1 on these machines).
void use_threads(int threads);

/// Caps what use_threads(0) takes (`limit` > 0; 0 lifts the cap): `bhpm --threads` (any
/// subcommand) and `bhpm run --threads`, so that the parallel processes of `bhpm sweep`
/// share the cores instead of each taking all.
void limit_threads(int limit);

}  // namespace bhpm::cli
