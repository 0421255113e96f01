"""The cardsmith rules language: load -> schema -> parse -> check -> compile."""
