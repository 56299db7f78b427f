//! `chess2rs lsp`: a language server for the four languages, over stdio.
//!
//! [`Server`] holds the open documents and answers one message at a time
//! (so tests drive it without a process); [`Session`] adds the protocol's
//! life cycle (`initialize`, `shutdown`, `exit`); [`serve`] is the loop
//! around them: it takes frames from a [`transport::Reader`] (which never
//! holds more than [`transport::MAX_MESSAGE`] bytes of a message and
//! recovers from bad framing), answers what is no message with the
//! protocol's errors and reads on, and re-checks changed documents once
//! the client has been quiet for [`DEBOUNCE`], publishing what `chess2rs
//! check` shows (errors, warnings, their labels and help; at most
//! [`SHOWN_AT_MOST`](crate::diag::SHOWN_AT_MOST), then how many more).

mod document;
pub mod transport;

use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::io::Write;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand,
    CodeActionProviderCapability, CompletionItem, CompletionItemKind, CompletionOptions,
    CompletionResponse, DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol,
    DocumentSymbolResponse, Documentation, GotoDefinitionResponse, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, Location, MarkupContent, MarkupKind, OneOf,
    PositionEncodingKind, PrepareRenameResponse, PublishDiagnosticsParams, Range, RenameOptions,
    SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensFullOptions,
    SemanticTokensLegend, SemanticTokensOptions, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, SymbolKind,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};

use self::document::{Document, Encoding};
use self::transport::{decode, Decoded, Frame, Outgoing, Reader, MAX_MESSAGE};
use crate::complete::CompletionKind as CompleteKind;
use crate::diag::{building_shown_only, SHOWN_AT_MOST};
use crate::outline::{self, TokenKind};
use crate::{Diagnostic, Language, Severity};

/// How long the client must be quiet after a change before the document
/// is checked again.
pub const DEBOUNCE: Duration = Duration::from_millis(40);

/// Runs the server on stdin/stdout until the client says `exit` or the
/// input ends; returns the exit code (0 after `shutdown`, else 1).
pub fn run_stdio() -> Result<u8, Box<dyn Error + Send + Sync>> {
    // One frame waits while the next is read: with the one being handled,
    // at most three messages are held at once.
    let (frames, receiver) = crossbeam_channel::bounded(1);
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let mut reader = Reader::new(std::io::stdin().lock(), MAX_MESSAGE);
            while let Some(frame) = reader.next_frame() {
                if frames.send(frame).is_err() {
                    return;
                }
            }
        })?;
    let code = serve(
        &receiver,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    )?;
    // The reader may be blocked reading stdin; the process ends it.
    Ok(code)
}

/// The server reading `frames` and writing to `out` (and what it could
/// not read to `log`) until `exit` or the end of the frames; returns the
/// exit code. Fails only when writing fails.
pub fn serve(
    frames: &Receiver<Frame>,
    out: &mut impl Write,
    log: &mut impl Write,
) -> std::io::Result<u8> {
    let mut session = Session::new();
    loop {
        let frame = match session.next_deadline() {
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match frames.recv_timeout(wait) {
                    Ok(frame) => Some(frame),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            None => match frames.recv() {
                Ok(frame) => Some(frame),
                Err(_) => break,
            },
        };
        let now = Instant::now();
        let (replies, exit) = match frame {
            Some(frame) => session.frame(frame, now, log),
            None => (session.publish_due(now), None),
        };
        for reply in replies {
            reply.write(out)?;
        }
        if let Some(code) = exit {
            return Ok(code);
        }
    }
    let _ = writeln!(log, "chess2rs lsp: the input ended without `exit`");
    Ok(session.exit_code())
}

/// Where the client is in the protocol's life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Before `initialize`.
    Started,
    /// Between `initialize` and `shutdown`.
    Running,
    /// After `shutdown`: only `exit` is left.
    ShutDown,
}

/// The server and the protocol around it: the life cycle, and the answers
/// to what is no message. Every frame is answered or logged, and the
/// session goes on until `exit`.
pub struct Session {
    server: Server,
    stage: Stage,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session waiting for `initialize`.
    pub fn new() -> Session {
        Session {
            server: Server::new(&InitializeParams::default()),
            stage: Stage::Started,
        }
    }

    /// The exit code if the session ended now: 0 after `shutdown`, else 1.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.stage != Stage::ShutDown)
    }

    /// When the next changed document is due to be checked.
    pub fn next_deadline(&self) -> Option<Instant> {
        match self.stage {
            Stage::Running => self.server.next_deadline(),
            _ => None,
        }
    }

    /// Checks the documents due by `now`.
    pub fn publish_due(&mut self, now: Instant) -> Vec<Outgoing> {
        match self.stage {
            Stage::Running => self
                .server
                .publish_due(now)
                .into_iter()
                .map(Outgoing::from)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Handles one frame from the reader: what to send back, and the exit
    /// code if it was `exit`. What could not be read is logged to `log`.
    pub fn frame(
        &mut self,
        frame: Frame,
        now: Instant,
        log: &mut impl Write,
    ) -> (Vec<Outgoing>, Option<u8>) {
        let failure = match frame {
            Frame::Body(body) => match decode(&body) {
                Ok(Decoded::Message(message)) => return self.message(message, now),
                Ok(Decoded::Response) => return (Vec::new(), None),
                Err(failure) => failure,
            },
            Frame::Broken(failure) => failure,
            Frame::Skipped(bytes) => {
                let _ = writeln!(
                    log,
                    "chess2rs lsp: skipped {bytes} bytes that were no message"
                );
                return (Vec::new(), None);
            }
        };
        let _ = writeln!(
            log,
            "chess2rs lsp: {} (answered {})",
            failure.message, failure.code
        );
        (vec![Outgoing::Failure(failure)], None)
    }

    /// Handles one message: what to send back, and the exit code if it was
    /// `exit`.
    pub fn message(&mut self, message: Message, now: Instant) -> (Vec<Outgoing>, Option<u8>) {
        let error = |request: &Request, code: ErrorCode, message: &str| {
            vec![Outgoing::from(Response::new_err(
                request.id.clone(),
                code as i32,
                message.to_string(),
            ))]
        };
        match message {
            Message::Notification(notification) if notification.method == "exit" => {
                (Vec::new(), Some(self.exit_code()))
            }
            Message::Request(request) => match (self.stage, request.method.as_str()) {
                (Stage::Started, "initialize") => {
                    let params: InitializeParams =
                        serde_json::from_value(request.params).unwrap_or_default();
                    self.server = Server::new(&params);
                    self.stage = Stage::Running;
                    let result = serde_json::json!({
                        "capabilities": self.server.capabilities(),
                        "serverInfo": ServerInfo {
                            name: "chess2rs".to_string(),
                            version: Some(env!("CARGO_PKG_VERSION").to_string()),
                        },
                    });
                    (vec![Response::new_ok(request.id, result).into()], None)
                }
                (Stage::Started, _) => (
                    error(
                        &request,
                        ErrorCode::ServerNotInitialized,
                        "the server waits for `initialize`",
                    ),
                    None,
                ),
                (Stage::Running, "initialize") => (
                    error(
                        &request,
                        ErrorCode::InvalidRequest,
                        "the server is already initialized",
                    ),
                    None,
                ),
                (Stage::Running, "shutdown") => {
                    self.stage = Stage::ShutDown;
                    (vec![Response::new_ok(request.id, ()).into()], None)
                }
                (Stage::Running, _) => (
                    self.server
                        .handle(Message::Request(request), now)
                        .into_iter()
                        .map(Outgoing::from)
                        .collect(),
                    None,
                ),
                (Stage::ShutDown, _) => (
                    error(
                        &request,
                        ErrorCode::InvalidRequest,
                        "the server is shut down; only `exit` is left",
                    ),
                    None,
                ),
            },
            message if self.stage == Stage::Running => (
                self.server
                    .handle(message, now)
                    .into_iter()
                    .map(Outgoing::from)
                    .collect(),
                None,
            ),
            // Notifications before `initialize` or after `shutdown`, and
            // responses, are dropped.
            _ => (Vec::new(), None),
        }
    }
}

/// The server's state: open documents, and which wait to be checked.
pub struct Server {
    documents: HashMap<Uri, Document>,
    /// Documents changed, by when they are due to be checked.
    due: BTreeMap<Uri, Instant>,
    encoding: Encoding,
}

impl Server {
    /// A server for a client that said `params` (its position encodings).
    pub fn new(params: &InitializeParams) -> Server {
        let utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        Server {
            documents: HashMap::new(),
            due: BTreeMap::new(),
            encoding: if utf8 {
                Encoding::Utf8
            } else {
                Encoding::Utf16
            },
        }
    }

    /// What the server can do.
    pub fn capabilities(&self) -> ServerCapabilities {
        ServerCapabilities {
            position_encoding: Some(match self.encoding {
                Encoding::Utf8 => PositionEncodingKind::UTF8,
                Encoding::Utf16 => PositionEncodingKind::UTF16,
            }),
            text_document_sync: Some(TextDocumentSyncCapability::Kind(
                TextDocumentSyncKind::INCREMENTAL,
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(["?", "!", "\"", "|", ":"].map(String::from).to_vec()),
                ..CompletionOptions::default()
            }),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..CodeActionOptions::default()
            })),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: SemanticTokensLegend {
                        token_types: TokenKind::ALL
                            .iter()
                            .map(|kind| SemanticTokenType::new(kind.lsp_name()))
                            .collect(),
                        token_modifiers: Vec::new(),
                    },
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    ..SemanticTokensOptions::default()
                }),
            ),
            ..ServerCapabilities::default()
        }
    }

    /// When the next changed document is due to be checked.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.due.values().min().copied()
    }

    /// Handles one message from the client (at `now`), returning what to
    /// send back. Diagnostics of an opened document go out at once, of a
    /// changed one from [`Server::publish_due`].
    pub fn handle(&mut self, message: Message, now: Instant) -> Vec<Message> {
        match message {
            Message::Request(request) => vec![Message::Response(self.respond(request))],
            Message::Notification(notification) => self.notified(notification, now),
            Message::Response(_) => Vec::new(),
        }
    }

    /// Checks the documents due by `now` and returns their diagnostics.
    pub fn publish_due(&mut self, now: Instant) -> Vec<Message> {
        let due: Vec<Uri> = self
            .due
            .iter()
            .filter(|(_, &deadline)| deadline <= now)
            .map(|(uri, _)| uri.clone())
            .collect();
        due.into_iter()
            .filter_map(|uri| {
                self.due.remove(&uri);
                self.diagnostics(&uri)
            })
            .collect()
    }

    fn notified(&mut self, notification: Notification, now: Instant) -> Vec<Message> {
        let params = notification.params;
        // Notifications with bad parameters are dropped.
        let answer = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => parse(params).map(|params| self.opened(params)),
            DidChangeTextDocument::METHOD => parse(params).map(|params| self.changed(params, now)),
            DidCloseTextDocument::METHOD => parse(params).map(|params| self.closed(params)),
            _ => return Vec::new(),
        };
        answer.unwrap_or_default()
    }

    /// A document opened: its diagnostics at once.
    fn opened(&mut self, params: lsp_types::DidOpenTextDocumentParams) -> Vec<Message> {
        let item = params.text_document;
        let Some(language) = language_of(&item.uri, &item.language_id) else {
            return Vec::new();
        };
        let name = name_of(&item.uri);
        let document = Document::new(name, language, item.version, item.text);
        self.documents.insert(item.uri.clone(), document);
        self.diagnostics(&item.uri).into_iter().collect()
    }

    /// A document changed: its edits applied (incremental sync: ranges in
    /// order, or a whole text, which a client may always send), its
    /// diagnostics due after the debounce.
    fn changed(
        &mut self,
        params: lsp_types::DidChangeTextDocumentParams,
        now: Instant,
    ) -> Vec<Message> {
        let uri = params.text_document.uri;
        let Some(document) = self.documents.get_mut(&uri) else {
            return Vec::new();
        };
        let version = params.text_document.version;
        let changed = !params.content_changes.is_empty();
        for change in params.content_changes {
            match change.range {
                Some(range) => document.edit(version, range, &change.text, self.encoding),
                None => document.replace(version, change.text),
            }
        }
        if changed {
            self.due.insert(uri, now + DEBOUNCE);
        }
        Vec::new()
    }

    /// A document closed: its diagnostics cleared.
    fn closed(&mut self, params: lsp_types::DidCloseTextDocumentParams) -> Vec<Message> {
        let uri = params.text_document.uri;
        self.due.remove(&uri);
        self.documents
            .remove(&uri)
            .map(|_| publish(uri, Vec::new(), None))
            .into_iter()
            .collect()
    }

    /// The diagnostics of an open document, as a notification.
    fn diagnostics(&mut self, uri: &Uri) -> Option<Message> {
        let document = self.documents.get(uri)?;
        // Only what is shown is built: a document with an error on every
        // line costs what one with fifty does.
        let diagnostics = building_shown_only(|| document.diagnostics());
        let encoding = self.encoding;
        // What `check` shows, then a note of how many more there are.
        let mut converted: Vec<lsp_types::Diagnostic> = diagnostics
            .shown()
            .map(|diagnostic| lsp_diagnostic(diagnostic, uri, document, encoding))
            .collect();
        if let Some(more) = diagnostics.not_shown() {
            converted.push(lsp_types::Diagnostic {
                range: lsp_types::Range::default(),
                severity: Some(DiagnosticSeverity::INFORMATION),
                source: Some("chess2rs".to_string()),
                message: format!(
                    "{more} not shown (the first {SHOWN_AT_MOST} are listed; fix them and check again)"
                ),
                ..lsp_types::Diagnostic::default()
            });
        }
        Some(publish(uri.clone(), converted, Some(document.version)))
    }

    fn respond(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => self.hover(request).map(serde_json::to_value),
            GotoDefinition::METHOD => self.definition(request).map(serde_json::to_value),
            References::METHOD => self.references(request).map(serde_json::to_value),
            DocumentSymbolRequest::METHOD => self.symbols(request).map(serde_json::to_value),
            SemanticTokensFullRequest::METHOD => self.tokens(request).map(serde_json::to_value),
            PrepareRenameRequest::METHOD => self.prepare_rename(request).map(serde_json::to_value),
            CodeActionRequest::METHOD => self.code_actions(request).map(serde_json::to_value),
            Completion::METHOD => self.completion(request).map(serde_json::to_value),
            Rename::METHOD => match self.rename(request) {
                Ok(Err(refused)) => {
                    return Response::new_err(id, ErrorCode::RequestFailed as i32, refused)
                }
                answered => answered.map(|edit| serde_json::to_value(edit.ok())),
            },
            Formatting::METHOD => match self.formatting(request) {
                Ok(Err(refused)) => {
                    return Response::new_err(id, ErrorCode::RequestFailed as i32, refused)
                }
                answered => answered.map(|edits| serde_json::to_value(edits.ok())),
            },
            other => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("chess2rs does not answer `{other}`"),
                )
            }
        };
        match result {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(error)) => {
                Response::new_err(id, ErrorCode::InternalError as i32, error.to_string())
            }
            Err(message) => Response::new_err(id, ErrorCode::InvalidParams as i32, message),
        }
    }

    /// The open document of `at`, the byte offset of its position in it,
    /// and its URI.
    fn locate(&self, at: lsp_types::TextDocumentPositionParams) -> Option<(usize, &Document, Uri)> {
        let uri = at.text_document.uri;
        let document = self.documents.get(&uri)?;
        Some((document.offset(at.position, self.encoding), document, uri))
    }

    fn hover(&self, request: Request) -> Result<Option<Hover>, String> {
        let params: lsp_types::HoverParams = parse(request.params)?;
        let located = self.locate(params.text_document_position_params);
        Ok(located.and_then(|(offset, document, _)| {
            let hover = document.outline().hover_at(offset)?;
            Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: hover.text.clone(),
                }),
                range: Some(document.range(&hover.span, self.encoding)),
            })
        }))
    }

    fn definition(&self, request: Request) -> Result<Option<GotoDefinitionResponse>, String> {
        let params: lsp_types::GotoDefinitionParams = parse(request.params)?;
        let located = self.locate(params.text_document_position_params);
        Ok(located.and_then(|(offset, document, uri)| {
            let span = document.outline().definition_at(offset)?;
            let range = document.range(&span, self.encoding);
            Some(GotoDefinitionResponse::Scalar(Location::new(uri, range)))
        }))
    }

    fn references(&self, request: Request) -> Result<Option<Vec<Location>>, String> {
        let params: lsp_types::ReferenceParams = parse(request.params)?;
        let declaration = params.context.include_declaration;
        Ok(self
            .locate(params.text_document_position)
            .map(|(offset, document, uri)| {
                (document.outline().references_at(offset, declaration).iter())
                    .map(|span| Location::new(uri.clone(), document.range(span, self.encoding)))
                    .collect()
            }))
    }

    /// The items of `textDocument/completion`.
    fn completion(&self, request: Request) -> Result<Option<CompletionResponse>, String> {
        let params: lsp_types::CompletionParams = parse(request.params)?;
        Ok(self
            .locate(params.text_document_position)
            .map(|(offset, document, _)| {
                let items = (document.completions(offset).into_iter())
                    .map(|completion| CompletionItem {
                        label: completion.text,
                        kind: Some(match completion.kind {
                            CompleteKind::Label => CompletionItemKind::REFERENCE,
                            CompleteKind::Piece => CompletionItemKind::CLASS,
                            CompleteKind::Syntax => CompletionItemKind::KEYWORD,
                        }),
                        detail: Some(completion.detail),
                        documentation: Some(Documentation::MarkupContent(MarkupContent {
                            kind: MarkupKind::Markdown,
                            value: completion.documentation,
                        })),
                        ..CompletionItem::default()
                    })
                    .collect();
                CompletionResponse::Array(items)
            }))
    }

    /// The quick fixes of `textDocument/codeAction`: for each diagnostic
    /// the client sends back that carries a fix (a "did you mean" among
    /// them), the edit that applies it.
    fn code_actions(&self, request: Request) -> Result<Option<Vec<CodeActionOrCommand>>, String> {
        let params: lsp_types::CodeActionParams = parse(request.params)?;
        let uri = params.text_document.uri;
        if !self.documents.contains_key(&uri) {
            return Ok(None);
        }
        let actions = (params.context.diagnostics.into_iter())
            .filter_map(|diagnostic| {
                let data = diagnostic.data.as_ref()?;
                let range: Range = serde_json::from_value(data.get("range")?.clone()).ok()?;
                let replacement = data.get("replacement")?.as_str()?.to_string();
                let title = match replacement.trim() {
                    "" => "Remove it".to_string(),
                    shown if !shown.contains('\n') => format!("Replace with `{shown}`"),
                    shown => format!("Write `{}`", shown.replace('\n', " ⏎ ")),
                };
                let edit = TextEdit::new(range, replacement);
                Some(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic]),
                    edit: Some(WorkspaceEdit::new(HashMap::from([(
                        uri.clone(),
                        vec![edit],
                    )]))),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }))
            })
            .collect();
        Ok(Some(actions))
    }

    /// The range of the name `textDocument/rename` would rename, if
    /// there is one at the position.
    fn prepare_rename(&self, request: Request) -> Result<Option<PrepareRenameResponse>, String> {
        let params: lsp_types::TextDocumentPositionParams = parse(request.params)?;
        Ok(self.locate(params).and_then(|(offset, document, _)| {
            let renaming = document.renaming(offset)?;
            Some(PrepareRenameResponse::Range(
                document.range(&renaming.at, self.encoding),
            ))
        }))
    }

    /// The edits of `textDocument/rename`; the inner error says why there
    /// is nothing to rename or the new name cannot be.
    fn rename(&self, request: Request) -> Result<Result<WorkspaceEdit, String>, String> {
        let params: lsp_types::RenameParams = parse(request.params)?;
        let Some((offset, document, uri)) = self.locate(params.text_document_position) else {
            return Ok(Err("the document is not open".to_string()));
        };
        let Some(renaming) = document.renaming(offset) else {
            let renamable = crate::renamable(document.language);
            return Ok(Err(format!("there is no name to rename here: {renamable}")));
        };
        Ok(renaming.edits(&params.new_name).map(|edits| {
            let edits = (edits.into_iter())
                .map(|(span, text)| TextEdit::new(document.range(&span, self.encoding), text))
                .collect();
            WorkspaceEdit::new(HashMap::from([(uri, edits)]))
        }))
    }

    /// The edits of `textDocument/formatting`; the inner error is the
    /// document's first syntax error, when it does not parse.
    fn formatting(&self, request: Request) -> Result<Result<Vec<TextEdit>, String>, String> {
        let params: lsp_types::DocumentFormattingParams = parse(request.params)?;
        let Some(document) = self.documents.get(&params.text_document.uri) else {
            return Ok(Ok(Vec::new()));
        };
        Ok(document.formatting(self.encoding).map_err(|errors| {
            let first = errors.iter().next().map(|error| {
                let (line, column) = document.line_col(error.span.start);
                format!(": line {line}, column {column}: {}", error.message)
            });
            format!("the document does not parse{}", first.unwrap_or_default())
        }))
    }

    fn symbols(&self, request: Request) -> Result<Option<DocumentSymbolResponse>, String> {
        let params: lsp_types::DocumentSymbolParams = parse(request.params)?;
        let Some(document) = self.documents.get(&params.text_document.uri) else {
            return Ok(None);
        };
        let encoding = self.encoding;
        #[allow(deprecated)] // `deprecated` is a field LSP keeps for old clients.
        let symbols = (document.outline().symbols.iter())
            .map(|symbol| DocumentSymbol {
                name: symbol.name.clone(),
                detail: (!symbol.detail.is_empty()).then(|| symbol.detail.clone()),
                kind: match symbol.kind {
                    outline::SymbolKind::Label => SymbolKind::KEY,
                    outline::SymbolKind::Loop => SymbolKind::NAMESPACE,
                    outline::SymbolKind::Piece => SymbolKind::CLASS,
                    outline::SymbolKind::Turn => SymbolKind::EVENT,
                    outline::SymbolKind::Instruction => SymbolKind::CONSTANT,
                },
                tags: None,
                deprecated: None,
                range: document.range(&symbol.span, encoding),
                selection_range: document.range(&symbol.name_span, encoding),
                children: None,
            })
            .collect();
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    fn tokens(&self, request: Request) -> Result<Option<SemanticTokensResult>, String> {
        let params: lsp_types::SemanticTokensParams = parse(request.params)?;
        let Some(document) = self.documents.get(&params.text_document.uri) else {
            return Ok(None);
        };
        let (encoding, tokens) = (self.encoding, &document.outline().tokens);
        let mut data = Vec::with_capacity(tokens.len());
        let (mut line, mut column) = (0, 0);
        for token in tokens {
            // A token never spans lines in LSP: a multi-line one (a PGN
            // comment) is cut at its first line's end.
            let start = document.position(token.span.start, encoding);
            let end = document.position(token.span.end, encoding);
            let length = if end.line == start.line {
                end.character - start.character
            } else {
                let line_end =
                    document.offset(lsp_types::Position::new(start.line, u32::MAX), encoding);
                document.position(line_end, encoding).character - start.character
            };
            if length == 0 {
                continue;
            }
            let delta_line = start.line - line;
            let delta_start = if delta_line == 0 {
                start.character - column
            } else {
                start.character
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: TokenKind::ALL
                    .iter()
                    .position(|kind| *kind == token.kind)
                    .unwrap_or(0) as u32,
                token_modifiers_bitset: 0,
            });
            (line, column) = (start.line, start.character);
        }
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    }
}

/// The `publishDiagnostics` notification.
fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) -> Message {
    Message::Notification(Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    ))
}

/// A compiler diagnostic as LSP's: the message, range, severity and code
/// (with `codeDescription`, its section of `docs/diagnostics.md`); the
/// secondary labels and the help as related information (at their spans,
/// the help at the primary one).
fn lsp_diagnostic(
    diagnostic: &Diagnostic,
    uri: &Uri,
    document: &Document,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let related = |span: &crate::Span, message: String| DiagnosticRelatedInformation {
        location: Location::new(uri.clone(), document.range(span, encoding)),
        message,
    };
    let mut information: Vec<DiagnosticRelatedInformation> = diagnostic
        .secondary
        .iter()
        .map(|(span, label)| related(span, label.clone()))
        .collect();
    if let Some(help) = &diagnostic.help {
        information.push(related(&diagnostic.span, format!("help: {help}")));
    }
    let message = if diagnostic.label.is_empty() {
        diagnostic.message.clone()
    } else {
        format!("{}\n{}", diagnostic.message, diagnostic.label)
    };
    lsp_types::Diagnostic {
        range: document.range(&diagnostic.span, encoding),
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        source: Some("chess2rs".to_string()),
        code: Some(lsp_types::NumberOrString::String(
            diagnostic.code.as_str().to_string(),
        )),
        code_description: diagnostic
            .code
            .docs_url()
            .parse()
            .ok()
            .map(|href| lsp_types::CodeDescription { href }),
        message,
        related_information: (!information.is_empty()).then_some(information),
        // The fix a quick fix applies (`textDocument/codeAction`).
        data: diagnostic.suggestion.as_ref().map(|suggestion| {
            serde_json::json!({
                "range": document.range(&suggestion.span, encoding),
                "replacement": suggestion.replacement,
            })
        }),
        ..lsp_types::Diagnostic::default()
    }
}

/// The language of a document: its extension, else the client's language
/// id.
fn language_of(uri: &Uri, language_id: &str) -> Option<Language> {
    let path = uri.as_str().split(['?', '#']).next().unwrap_or_default();
    Language::from_path(std::path::Path::new(path)).or_else(|| Language::from_name(language_id))
}

/// The name diagnostics give a document: a `file:` URI's path (its `%XX`
/// escapes decoded), else the URI.
fn name_of(uri: &Uri) -> String {
    if !uri.as_str().starts_with("file:") {
        return uri.as_str().to_string();
    }
    let path = uri.path().as_estr().decode().into_bytes();
    String::from_utf8_lossy(&path).into_owned()
}

/// A message's parameters, or what is wrong with them.
fn parse<P: serde::de::DeserializeOwned>(params: serde_json::Value) -> Result<P, String> {
    serde_json::from_value(params).map_err(|e| format!("bad parameters: {e}"))
}

#[cfg(test)]
mod tests;
