---
"@app/__ID__": minor
---

New document plugin @app/__ID__: '__TITLE__' at __BASE_PATH__ (tag __TAG__), numbered documents with items, a send/accept/return/cancel flow and a PDF, the API /api/__ID____BASE_PATH__.
