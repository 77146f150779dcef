"""Lesson 07's public test cases (higher-order derivatives)."""
import numpy as np

HVP_CASES = [(np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.0, 0.0])),
             (np.array([1.5, 0.3, -0.7]), np.array([0.2, -1.0, 3.0]))]
