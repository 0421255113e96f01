"""The engine core: a compiled rule file fixed to a player count and options (`Game`) and the states of a
match (`State`), with chance, the step budget, observations and the runtime helpers the generated code
calls. Everything else in cardsmith (bots, scenarios, the table, the CLI, research adapters) builds on it."""
