{
  "name": "@platform/{{name}}",
  "version": "0.1.0",
  "private": true,
  "description": {{descriptionJson}},
  "main": "dist/index.js",
  "types": "dist/index.d.ts",
  "scripts": {
    "build": "tsc -b",
    "prestart": "tsc -b",
    "start": "node dist/main.js",
    "build:web": "vite build web"
  },
  "dependencies": {
    "@platform/core": "*",
    "@platform/db": "*"
  },
  "nx": {
    "tags": [
      "type:service"
    ]
  }
}
