---
"@app/__ID__": minor
---

New plugin @app/__ID__: '__TITLE__' at __BASE_PATH__ (tag __TAG__), list, new and edit pages and the CRUD API /api/__ID____BASE_PATH__.
