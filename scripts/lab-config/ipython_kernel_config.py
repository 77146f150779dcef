# The course's Python kernel: ipykernel's own, except that the language_info it reports leaves out Python's
# version. JupyterLab writes a kernel's language_info into the notebook as soon as the kernel connects, and
# marks the notebook modified when it differs from the stored one; with the version in it, every lesson would
# open modified on any Python but the one it was executed with (3.11.2 here, 3.13.0 there), autosave would
# rewrite it, and git would see a change nobody made. The lessons store this same language_info.
#
# IPython reads this file from <environment>/etc/ipython/, where scripts/course_kernel.py install puts it
# (make lab does so on every start; binder/postBuild does on Binder).
from ipykernel.ipkernel import IPythonKernel


class CourseKernel(IPythonKernel):
    language_info = {key: value for key, value in IPythonKernel.language_info.items() if key != "version"}


c.IPKernelApp.kernel_class = CourseKernel  # noqa: F821 (c is the configuration IPython hands to this file)
