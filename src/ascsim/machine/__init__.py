"""The machine ascsim simulates: chip profiles, element types, fractal layouts, byte memories and
LocalTensors, the registers of a core, and the validators over them."""
