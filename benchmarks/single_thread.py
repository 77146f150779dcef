"""Pin every numerical library to one thread. Import this module before NumPy or any framework.

The thread pools of BLAS, OpenMP, TensorFlow and XLA read these variables once, when they
load, so setting them later has no effect. One thread everywhere makes the comparison about
the libraries' own overhead, not about how many cores each one grabs (the machine has two).
PyTorch and TensorFlow also get their in-process settings in ``frameworks.py``.
"""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                  "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "TF_NUM_INTRAOP_THREADS",
                  "TF_NUM_INTEROP_THREADS"):
    os.environ[_variable] = "1"
# JAX (XLA on the CPU): no Eigen thread pool, one intra-op thread, and no search for accelerators.
os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # TensorFlow's start-up chatter would bury the tables
