#!/usr/bin/env bash
# Installs every Debian package BHPM needs to build, test and benchmark.
# Idempotent and non-interactive: packages already present are left alone.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libtorch-dev             # LibTorch 1.13 (find_package(Torch))
  libopenblas0-openmp      # OpenMP OpenBLAS, selected per binary by RPATH
  libopenblas-dev
  libhdf5-dev              # data and result files
  zlib1g-dev               # bhpm import reads deflated NumPy .npz archives
  libtomlplusplus-dev      # configuration
  libcli11-dev             # command line
  libmuparser-dev          # expressions in configuration (initial conditions, general PDEs)
  libsundials-dev          # CVODE: time steps of the bounded-domain solver
  libfftw3-dev             # FFTW: the spectral solver's steps on plain arrays (CPU)
  libeigen3-dev            # Eigen: eigenvectors of a system's coupled linear part per wavenumber
  nlohmann-json3-dev       # reading result files back (metrics.json) for reports and sweeps
  gnuplot-nox              # bhpm report draws its PNG figures with gnuplot's pngcairo terminal
  fonts-dejavu-core        # a font for those figures' text (without one, glyphs render as boxes)
  libgtest-dev libgmock-dev googletest
  libbenchmark-dev
  libopenmpi-dev openmpi-bin  # mpirun -n P bhpm sweep (CMake option BHPM_WITH_MPI)
  python3-h5py             # tests read our files with h5py alone, as users will
  clang-format             # the code style check (scripts/check_format.sh)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
