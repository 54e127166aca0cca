"""The instructions: one module per family (validate -> plan -> execute, each beside its reference
interpreter), the register setters, and the instruction table that says which call runs which family
(`ascsim.isa.table`)."""
