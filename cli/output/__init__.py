"""What the commands print: Rich and plain text renderers, and JSON documents (jsonout), one module per kind of
answer."""
