"""The Mexican Train rules engine: pure Python, no I/O, no hardware, no pygame."""
