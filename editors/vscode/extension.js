// Starts `chess2rs lsp` for the five file types and stops it with VS Code.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const command = vscode.workspace.getConfiguration("chess2rs").get("path");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "chess2rs",
    "chess2rs",
    { run: server, debug: server },
    {
      documentSelector: ["infchesspro", "chesscode", "chessoteric", "btm", "finvara"].map(
        (language) => ({ scheme: "file", language })
      ),
    }
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
