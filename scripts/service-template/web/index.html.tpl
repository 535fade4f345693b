<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>{{titleHtml}} · Platform</title>
  </head>
  <body>
    <main>
      <h1>{{titleHtml}}</h1>
      <p>{{descriptionHtml}}. The full web UI is coming in its own issue.</p>
      <p>API: <a href="/docs">reference</a> · <code>/api/v1/{{name}}</code></p>
      <p><a href="/">Back to the dashboard</a></p>
    </main>
  </body>
</html>
