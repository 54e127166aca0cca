"""The engine every instruction runs on: access plans and their executor, the call boundary (validate once,
cache, place, execute, record), the call record, the caches, the core state, and the sync checker."""
