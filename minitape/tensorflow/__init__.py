"""TensorFlow's surface: the parts of TensorFlow's API that are not the engine, written on it.

The engine (``minitape/``: values, ops, recorders, the sweep, the tape) speaks TensorFlow's names
already, since ``mt.`` is TensorFlow's top level. What is here is the rest of what TensorFlow code
uses, each a module:

* ``math.py``, ``nn.py``, ``linalg.py``: ``mt.math``, ``mt.nn`` and ``mt.linalg``, made from the
  namespaces each op names where it is declared (``minitape/ops/exports.py``); ``nn.py`` adds
  ``dropout``; ``autodiff.py`` and ``test.py`` gather ``mt.autodiff`` and ``mt.test``;
* ``custom_gradient.py``: ``@mt.custom_gradient``, a gradient rule of your own;
* ``control.py``: ``cond``, ``while_loop``, ``map_fn``, ``recompute_grad``; ``eager_function.py``:
  ``function`` and ``py_function``, run eagerly;
* ``module.py``: ``Module``, a model's Variables found through its attributes (``scopes.py``:
  ``name_scope``);
* ``random.py``, ``image.py``: ``mt.random`` and ``mt.image``;
* ``tensor_array.py``, ``printing.py``, ``indexed_slices.py``: ``TensorArray``, ``print`` and
  ``IndexedSlices``, as in TensorFlow's eager mode.

``minitape/__init__.py`` gathers them under ``mt.``; Keras is ``minitape/keras/``, beside this package
and the PyTorch and JAX front ends.
"""
