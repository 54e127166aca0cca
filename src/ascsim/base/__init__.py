"""The ground floor: errors and their basis, coercion of user values, diagnostics (hazard and doc-conflict
reporting), lazy imports. Imports nothing else of ascsim."""
