#!/usr/bin/env bash
# Before `make bench` compares us with PyTorch: make sure PyTorch runs on an optimised BLAS.
# Debian's python3-torch calls whatever libblas.so.3 the system provides, and a fresh machine
# provides the *reference* BLAS (libblas3), a peer no user would choose. When that is the case
# and packages can be installed (root, or password-less sudo), install OpenBLAS
# (libopenblas0-pthread), which takes over libblas.so.3. Otherwise say why the comparison would
# be unfair; build/bench then writes null ratios. Never fails the bench.
set -u
PYTHON=${PYTHON:-/usr/bin/python3}
blas_of_torch() {  # the libblas.so.3 a PyTorch process really loads
  "$PYTHON" - <<'PY' 2>/dev/null
import torch, os
libs = sorted({line.split()[-1] for line in open("/proc/self/maps") if "blas" in line.split()[-1]})
print(os.path.realpath(libs[0]) if libs else "")
PY
}
if ! "$PYTHON" -c 'import torch' 2>/dev/null; then
  echo "bench: PyTorch is not installed; only our own figures will be measured"
  exit 0
fi
blas=$(blas_of_torch)
case "$blas" in
  */blas/libblas.so*)  # Debian's reference implementation
    if command -v apt-get >/dev/null; then
      if [ "$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
      if [ "$SUDO" != none ]; then
        echo "bench: PyTorch uses the reference BLAS ($blas); installing libopenblas0-pthread for a fair comparison"
        $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=120 libopenblas0-pthread >/dev/null 2>&1 \
          || echo "bench: could not install libopenblas0-pthread"
        blas=$(blas_of_torch)
      fi
    fi;;
esac
# BLIS beside OpenBLAS: one more peer kernel to try (tests/bench/peers.cpp puts it first with
# LD_LIBRARY_PATH; installing it leaves OpenBLAS the system's libblas.so.3)
if ! ls /usr/lib/*/blis-*/libblas.so.3 >/dev/null 2>&1 && command -v apt-get >/dev/null; then
  if [ "$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
  if [ "$SUDO" != none ]; then
    echo "bench: installing libblis4-pthread (BLIS, a second peer kernel)"
    $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=120 libblis4-pthread >/dev/null 2>&1 \
      || echo "bench: could not install libblis4-pthread; OpenBLAS's kernels only"
  fi
fi
case "$blas" in
  */blas/libblas.so*) echo "bench: PyTorch still uses the reference BLAS ($blas): a comparison with it would be unfair, so the ratios will be null (install libopenblas0-pthread)";;
  *) echo "bench: PyTorch uses $blas";;
esac
exit 0
