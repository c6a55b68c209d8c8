#!/usr/bin/env python3
"""A fake Telegram Bot API on loopback that behaves like the documented one, for Tessera's tests.

Usage: fake_telegram.py TOKEN [BOT_USERNAME]   — prints `PORT <n>` once it listens.

Bot API (https://core.telegram.org/bots/api), under /bot<TOKEN>/<method>, JSON, form or multipart bodies:
  getMe, deleteWebhook, setMyCommands (per language_code), getUpdates (offset confirms earlier updates; timeout
  clamped to 50 s; long polls until an update arrives; allowed_updates is remembered and updates of other types
  are dropped), sendMessage (HTML parse mode checked: unknown or unbalanced tags and bare & < > are "can't parse
  entities" 400s; more than 4096 characters after parsing is a 400; reply_markup must be a valid inline
  keyboard; message_effect_id one of the six every user has, in a private chat only), sendDocument (multipart upload of `document`), sendPhoto (a PNG uploaded as `photo`, within the documented
  dimensions, or a file_id it gave before; a caption of at most 1,024 characters after parsing; answered with
  the sizes, the largest last), editMessageCaption (a photo the bot sent), setMessageReaction (emoji reactions from the
  documented set, on a message id), editMessageText (a message the bot sent in that chat; the same text and
  buttons is "message is not modified"; an unknown or deleted one is "message to edit not found"),
  deleteMessage (only where the bot was given the right through the control API), answerInlineQuery (a
  pending inline query, answered once, with articles, photos it holds (InlineQueryResultCachedPhoto) or a
  button), answerCallbackQuery, getChatMember
  (administrators as set through the control API), setChatMemberTag (only where the bot was given the right
  through the control API; 0–16 characters without emoji, on a member who is not an administrator), sendRichMessage (rich_message's fields checked against
  InputRichMessage; its HTML checked as sendMessage's, with the block tags; within the documented limits of
  32,768 characters, 500 blocks and 20 columns; recorded with its text read as lines, table cells between
  " | ", and its html as rich_html). A wrong token gets 401; a new getUpdates ends one still
  waiting with a 409, as the real one does.

Every call is checked against bot-api-methods.json (the documentation's parameters, trimmed by
scripts/trim-bot-api-spec): a missing required parameter or one of the wrong type is a 400; a parameter the
documentation does not list is recorded (GET /control/undocumented) for tests to refuse.

Control API for tests, under /control:
  POST /control/updates {"updates": [...]}  queue updates (update_id assigned when missing)
  GET  /control/sent                          every message, document and photo sent so far, in order
  GET  /control/photo?file_id=ID              a photo's PNG, as {"png_base64"}
  GET  /control/commands                      the command menus set, by language code ("" for the default)
  GET  /control/answered                      the callback query ids answered
  GET  /control/reactions                     every reaction set: chat_id, message_id, emoji
  GET  /control/edits                         every edit: chat_id, message_id, text, reply_markup, time
  GET  /control/deleted                       every message deleted: chat_id, message_id
  GET  /control/inline_answers                every inline query answered: inline_query_id, results, button
  POST /control/can_delete {"chat_id"}        the bot is an administrator that may delete messages in that
                                              group from now on (getChatMember for the bot, id 42, says so)
  POST /control/refuse_rich {"chat_id"}       that chat refuses rich messages from now on (a 400)
  POST /control/can_tag {"chat_id"}           the bot is an administrator that may manage members' tags there
  GET  /control/tags                          every tag set: chat_id, user_id, tag (null: removed)
  GET  /control/undocumented                  parameters the bot sent that the documentation does not list
  POST /control/count {"contains"}            how many messages sent read (as last edited) with that text; the
                                              first count of a text watches it, so later ones cost nothing
  POST /control/fail {"method", "status", "count", "retry_after", "migrate_to_chat_id", "description"}
  POST /control/drop {"method", "count"}      the next calls of a method lose their connection mid-response
  POST /control/hold {"method"}               calls of a method get no answer until released (a slow API)
  POST /control/release {"method"}            answers the held calls of a method, and holds no more
  POST /control/admins {"chat_id", "user_ids"}   who administers a group (everyone else is a "member")
  POST /control/changes {"since", "timeout"}  answers with the count of changes once it exceeds `since`, or at
                                              the timeout (seconds): tests wait on it for the bot to act
  GET  /control/stats                         counters (polls_waiting: long polls held open now; calls.METHOD:
                                              every call of a method, held and failed ones too)
  GET  /control/latencies                     seconds from each update becoming available to its reply
"""
import base64
import email.parser
import os
import email.policy
import html.parser
import json
import signal
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

TOKEN = sys.argv[1]
USERNAME = sys.argv[2] if len(sys.argv) > 2 else "TesseraBot"
ALLOWED_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "pre", "a", "tg-spoiler",
                "span", "blockquote"}

lock = threading.Condition()
changes = [0]         # counts changes of the fake's state: /control/changes waits for the next
updates = []          # pending updates, oldest first
next_update_id = 1000
sent = []             # messages sent by the bot
by_id = {}            # (chat id, message id) -> the sent message, for edits
watched = {}          # text -> the (chat id, message id) of the messages that read with it now
available = {}        # (chat id, message id) -> when its update became available
failures = {}         # method -> list of failure specs
drops = {}            # method -> count
held = {}             # method -> threading.Event set on release
stats = {"getUpdates": 0, "sendMessage": 0, "editMessageText": 0, "getChatMember": 0, "conflicts": 0, "max_timeout_seen": 0,
         "polls_waiting": 0}
admins = {}           # chat id -> set of user ids
allowed_updates = [None]  # the update types getUpdates delivers; None: all
command_menus = {}    # language code -> command menu
answered = []         # callback query ids answered
reactions = []        # reactions set by the bot
# The emoji a bot may react with (ReactionTypeEmoji in the Bot API documentation).
REACTION_EMOJI = set("👍 👎 ❤ 🔥 🥰 👏 😁 🤔 🤯 😱 🤬 😢 🎉 🤩 🤮 💩 🙏 👌 🕊 🤡 🥱 🥴 😍 🐳 ❤‍🔥 🌚 🌭 💯 🤣 ⚡ 🍌 🏆 💔 "
                     "🤨 😐 🍓 🍾 💋 🖕 😈 😴 😭 🤓 👻 👨‍💻 👀 🎃 🙈 😇 😨 🤝 ✍ 🤗 🫡 🎅 🎄 ☃ 💅 🤪 🗿 🆒 💘 🙉 🦄 😘 💊 "
                     "🙊 😎 👾 🤷‍♂ 🤷 🤷‍♀ 😡".split())
# The message effects every user has: 🔥 👍 👎 ❤️ 🎉 💩.
MESSAGE_EFFECTS = {"5104841245755180586", "5107584321108051014", "5104858069142078462", "5159385139981059251",
                   "5046509860389126442", "5046589136895476101"}
edits = []            # edits made by the bot
deleted = []          # messages deleted by the bot
deleted_ids = set()   # (chat id, message id) of those
inline_answers = []   # inline queries answered
inline_queries = set()  # inline query ids delivered and not answered yet
can_delete = set()    # chats where the bot may delete messages
can_tag = set()       # chats where the bot may manage members' tags
tags = []             # tags set by the bot
undocumented = []     # "method.parameter" sent but not in the documentation
photos = {}           # file_id -> the PNG bytes uploaded
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bot-api-methods.json")) as spec_file:
    SPEC_FILE = json.load(spec_file)
    SPEC, SPEC_TYPES = SPEC_FILE["methods"], SPEC_FILE["types"]
refuses_rich = set()  # chats that refuse rich messages
# The rich message HTML the fake understands: the text tags, and the blocks boards use (Bot API 10.1 "Rich HTML
# style"): paragraphs, headings, footers, lists, quotations, tables.
RICH_TAGS = ALLOWED_TAGS | {"p", "h1", "h2", "h3", "h4", "h5", "h6", "footer", "hr", "br", "ul", "ol", "li",
                            "details", "summary", "table", "thead", "tbody", "tr", "th", "td", "aside"}
poll_generation = [0]  # bumped by every getUpdates; an older poll still waiting ends with 409
next_message_id = [1]


class EntityChecker(html.parser.HTMLParser):
    """Checks the Bot API's HTML rules; collects the text length after parsing."""

    def __init__(self, tags=ALLOWED_TAGS):
        super().__init__(convert_charrefs=True)
        self.stack, self.error, self.text, self.tags = [], None, [], tags

    def handle_starttag(self, tag, attrs):
        if tag not in self.tags:
            self.error = f"Unsupported start tag \"{tag}\""
        # Attributes the API reads; any other is refused, as the real API refuses what it does not know.
        allowed = {"a": {"href"}, "span": {"class"}, "blockquote": {"expandable"}, "pre": set(),
                   "code": {"class"}}.get(tag, set())
        for name, _ in attrs:
            if name not in allowed:
                self.error = f"Unsupported attribute \"{name}\" of tag \"{tag}\""
        if tag not in ("br", "hr"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in ("br", "hr"):
            return
        if not self.stack or self.stack.pop() != tag:
            self.error = f"Can't find end tag corresponding to start tag \"{tag}\""

    def handle_data(self, data):
        self.text.append(data)


class RichReader(EntityChecker):
    """A rich message as a reader sees it, in lines: each paragraph one, each table row one with its cells
    between " | "; counts its blocks and its tables' widest row."""

    def __init__(self):
        super().__init__(RICH_TAGS)
        self.blocks, self.columns, self.cells_in_row = 0, 0, 0

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        if tag in ("p", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "footer", "table", "blockquote"):
            self.blocks += 1
            if self.text and not self.text[-1].endswith("\n"):
                self.text.append("\n")
        if tag == "tr":
            self.cells_in_row = 0
        if tag in ("td", "th"):
            if self.cells_in_row:
                self.text.append(" | ")
            self.cells_in_row += 1
            self.columns = max(self.columns, self.cells_in_row)


def check_html(text, checker=None):
    # Bare & that does not start an entity, or < that does not start a tag, is an error (whatever follows
    # it: a combining mark after < does not make it text).
    i = 0
    while i < len(text):
        if text[i] == "&":
            end = text.find(";", i)
            if end == -1 or not (text[i + 1:end].isalnum() or text[i + 1:end].startswith("#")):
                return f"can't parse entities: unsupported entity at byte offset {i}", None
        if text[i] == "<":
            rest = text[i + 1:i + 3]
            if not (rest[:1].isascii() and rest[:1].isalpha()) and not (
                    rest[:1] == "/" and rest[1:2].isascii() and rest[1:2].isalpha()):
                return f"can't parse entities: unexpected character after \"<\" at byte offset {i}", None
        i += 1
    checker = checker or EntityChecker()
    checker.feed(text)
    checker.close()
    if checker.error or checker.stack:
        return "can't parse entities: " + (checker.error or f"unclosed tag \"{checker.stack[-1]}\""), None
    return None, "".join(checker.text)


def parse_multipart(content_type, raw):
    """Fields of a multipart/form-data body; a file becomes {"file_name", "content_type", "content"}."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
    fields = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        if part.get_filename():
            fields[name] = {"file_name": part.get_filename(), "content_type": part.get_content_type(),
                            "content": payload.decode("utf-8", "replace"), "bytes": payload}
        else:
            fields[name] = payload.decode("utf-8", "replace")
    return fields


def read_markup(markup):
    """An inline keyboard as the Bot API checks it: rows of buttons, each with text and exactly one action:
    1–64 bytes of callback_data, an http(s) or tg:// url, or copy_text of 1–256 characters; a style, if any, is
    "danger", "success" or "primary" (Bot API 10.1)."""
    if markup is None:
        return None, None
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            return None, "can't parse reply keyboard markup JSON object"
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        return None, "field \"inline_keyboard\" of the InlineKeyboardMarkup must be an Array of Arrays"
    for row in rows:
        for button in row:
            if not button.get("text"):
                return None, "text buttons are unallowed in the inline keyboard"
            actions = [key for key in ("url", "callback_data", "switch_inline_query", "callback_game", "pay",
                                       "web_app", "login_url", "copy_text") if key in button]
            if len(actions) != 1:
                return None, "can't find field \"text\"" if not actions else "BUTTON_TYPE_INVALID"
            if "style" in button and button["style"] not in ("danger", "success", "primary"):
                return None, "BUTTON_STYLE_INVALID"
            if "copy_text" in button:
                copied = button["copy_text"]
                if not isinstance(copied, dict) or not isinstance(copied.get("text"), str) \
                        or not 1 <= len(copied["text"]) <= 256:
                    return None, "BUTTON_COPY_TEXT_INVALID"
                continue
            if "switch_inline_query" in button:
                if not isinstance(button["switch_inline_query"], str):
                    return None, "field \"switch_inline_query\" must be of type String"
                continue
            if "url" in button:
                url = button["url"]
                if not isinstance(url, str) or not url.startswith(("https://", "http://", "tg://")):
                    return None, "BUTTON_URL_INVALID"
                continue
            data = button.get("callback_data", "")
            if not 1 <= len(data.encode()) <= 64:
                return None, "BUTTON_DATA_INVALID"
    return markup, None


def type_matches(value, documented):
    """Whether a value has one of the documented types; form and multipart bodies carry everything as text."""
    for kind in documented:
        if kind == "Integer" and (isinstance(value, int) and not isinstance(value, bool)
                                  or isinstance(value, str) and value.lstrip("-").isdigit()):
            return True
        if kind == "String" and isinstance(value, str):
            return True
        if kind == "Boolean" and (isinstance(value, bool) or value in ("true", "false")):
            return True
        if kind == "Float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
        if kind.startswith("Array of") and (isinstance(value, list) or isinstance(value, str) and value.startswith("[")):
            return True
        if kind == "InputFile" and isinstance(value, dict) and "content" in value:
            return True
        if kind[:1].isupper() and kind not in ("Integer", "String", "Boolean", "Float") \
                and not kind.startswith("Array of") and (isinstance(value, dict) or isinstance(value, str)
                                                         and value.startswith("{")):
            return True
    return False


def check_parameters(method, params):
    """The documentation's rules for a call: a 400's description, or None. Unknown parameters are recorded."""
    documented = SPEC.get(method)
    if documented is None:
        return None
    names = {parameter["name"] for parameter in documented}
    for name in params:
        if name not in names:
            with lock:
                undocumented.append(f"{method}.{name}")
    for parameter in documented:
        name = parameter["name"]
        if name not in params:
            if parameter["required"]:
                return f"Bad Request: parameter \"{name}\" is required"
            continue
        if not type_matches(params[name], parameter["types"]):
            return f"Bad Request: field \"{name}\" must be of type {' or '.join(parameter['types'])}"
    return None


def note_text(key, text):
    """Keeps the watched texts' counts as a message is sent or edited (called with the lock held)."""
    for needle, keys in watched.items():
        if needle in (text or ""):
            keys.add(key)
        else:
            keys.discard(key)


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def note_change():
    """Wakes whoever waits on /control/changes (and long polls, which look again). Called with `lock` held."""
    changes[0] += 1
    lock.notify_all()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes; with Nagle's algorithm on, each response would wait for
    # the client's delayed ACK (about 40 ms).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, description, parameters=None):
        payload = {"ok": False, "error_code": status, "description": description}
        if parameters:
            payload["parameters"] = parameters
        self.reply(status, payload)

    def read_params(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(self.path).query))
        if not raw:
            return query
        content_type = self.headers.get("Content-Type") or ""
        if content_type.startswith("multipart/form-data"):
            return {**query, **parse_multipart(content_type, raw)}
        if content_type.startswith("application/json"):
            try:
                return {**query, **json.loads(raw)}
            except ValueError:
                return None
        return {**query, **dict(urllib.parse.parse_qsl(raw.decode()))}

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def route(self):
        path = urllib.parse.urlparse(self.path).path
        params = self.read_params()
        if path.startswith("/control/"):
            return self.control(path[len("/control/"):], params or {})
        parts = path.strip("/").split("/")
        if len(parts) != 2 or not parts[0].startswith("bot"):
            return self.error(404, "Not Found")
        if parts[0][3:] != TOKEN:
            return self.error(401, "Unauthorized")
        if params is None:
            return self.error(400, "Bad Request: can't parse JSON")
        method = parts[1]
        try:
            self.call(method, params)
        finally:
            # After the call's effects (a message sent, a counter moved), so a waiter woken here sees them.
            with lock:
                note_change()

    def call(self, method, params):
        with lock:
            # Every call, answered or not: "calls.getMe" counts a call held or failed too.
            stats["calls." + method] = stats.get("calls." + method, 0) + 1
            note_change()
            if drops.get(method, 0) > 0:
                drops[method] -= 1
                drop = True
            else:
                drop = False
            failure = failures.get(method, [None]).pop(0) if failures.get(method) else None
            hold = held.get(method)
        if hold:
            # Bounded, so a test that forgets to release cannot keep a thread forever.
            hold.wait(timeout=600)
        if drop:
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"ok": tr')
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if failure:
            parameters = {}
            if "retry_after" in failure:
                parameters["retry_after"] = failure["retry_after"]
            if "migrate_to_chat_id" in failure:
                parameters["migrate_to_chat_id"] = failure["migrate_to_chat_id"]
            return self.error(failure["status"], failure.get("description", "Injected failure"), parameters or None)
        handler = getattr(self, "api_" + method, None)
        if handler is None:
            return self.error(404, "Not Found: method not found")
        problem = check_parameters(method, params)
        if problem:
            return self.error(400, problem)
        handler(params)

    # Bot API methods

    def api_getMe(self, params):
        self.reply(200, {"ok": True, "result": {"id": 42, "is_bot": True, "first_name": "Tessera",
                                                "username": USERNAME,
                                                "can_read_all_group_messages": False,
                                                "supports_inline_queries": True}})

    def api_deleteWebhook(self, params):
        self.reply(200, {"ok": True, "result": True})

    def api_setMyCommands(self, params):
        commands = params.get("commands")
        if isinstance(commands, str):
            commands = json.loads(commands)
        if not isinstance(commands, list) or not all("command" in c and "description" in c for c in commands):
            return self.error(400, "Bad Request: commands are invalid")
        with lock:
            command_menus[params.get("language_code") or ""] = commands
        self.reply(200, {"ok": True, "result": True})

    def api_getUpdates(self, params):
        global updates
        offset = int(params.get("offset", 0) or 0)
        timeout = min(int(params.get("timeout", 0) or 0), 50)
        with lock:
            stats["getUpdates"] += 1
            stats["max_timeout_seen"] = max(stats["max_timeout_seen"], int(params.get("timeout", 0) or 0))
            # Like the real Bot API, a new poll terminates the one in progress, which gets the 409; so a bot
            # restarted after a crash is not locked out by its dead predecessor's long poll.
            poll_generation[0] += 1
            generation = poll_generation[0]
            lock.notify_all()
            deadline = time.monotonic() + timeout
            if "allowed_updates" in params:
                allowed = params["allowed_updates"]
                allowed_updates[0] = json.loads(allowed) if isinstance(allowed, str) else allowed
            if offset:
                updates = [u for u in updates if u["update_id"] >= offset]
            if allowed_updates[0]:
                updates = [u for u in updates if any(kind in u for kind in allowed_updates[0])]
            stats["polls_waiting"] += 1
            while not updates and time.monotonic() < deadline and poll_generation[0] == generation:
                lock.wait(deadline - time.monotonic())
            stats["polls_waiting"] -= 1
            terminated = poll_generation[0] != generation
            if terminated:
                stats["conflicts"] += 1
            limit = int(params.get("limit", 100) or 100)
            batch = [u for u in updates if u["update_id"] >= offset][:limit]
        if terminated:
            return self.error(409, "Conflict: terminated by other getUpdates request; make sure that only one "
                                   "bot instance is running")
        self.reply(200, {"ok": True, "result": batch})

    def api_sendMessage(self, params):
        text = params.get("text", "")
        if not str(params.get("chat_id", "")).lstrip("-").isdigit():
            return self.error(400, "Bad Request: chat not found")
        plain, markup, problem = self.read_content(params)
        if problem:
            return self.error(400, problem)
        silent = params.get("disable_notification", False)
        if not isinstance(silent, bool):
            return self.error(400, "Bad Request: field \"disable_notification\" must be of type Boolean")
        effect = params.get("message_effect_id")
        if effect is not None:
            # Effects play in private chats only; these six are every user's (getAvailableMessageEffects).
            if int(params["chat_id"]) < 0:
                return self.error(400, "Bad Request: message effects are available only in private chats")
            if effect not in MESSAGE_EFFECTS:
                return self.error(400, "Bad Request: EFFECT_ID_INVALID")
        with lock:
            stats["sendMessage"] += 1
            message_id = next_message_id[0]
            next_message_id[0] += 1
            sent.append({"message_id": message_id, "chat_id": int(params["chat_id"]), "text": text,
                         "parse_mode": params.get("parse_mode"), "reply_parameters": params.get("reply_parameters"),
                         "message_thread_id": params.get("message_thread_id"), "reply_markup": markup,
                         "disable_notification": silent, "message_effect_id": effect, "time": time.time()})
            by_id[(int(params["chat_id"]), message_id)] = sent[-1]
            note_text((int(params["chat_id"]), message_id), sent[-1]["text"])
        self.reply(200, {"ok": True, "result": {"message_id": message_id, "date": int(time.time()),
                                                "chat": {"id": int(params["chat_id"])}, "text": plain}})

    def api_sendRichMessage(self, params):
        if not str(params.get("chat_id", "")).lstrip("-").isdigit():
            return self.error(400, "Bad Request: chat not found")
        rich = params["rich_message"]
        if isinstance(rich, str):
            rich = json.loads(rich)
        fields = {field["name"]: field for field in SPEC_TYPES["InputRichMessage"]}
        for name, value in rich.items():
            if name not in fields:
                with lock:
                    undocumented.append(f"InputRichMessage.{name}")
            elif not type_matches(value, fields[name]["types"]):
                return self.error(400, f"Bad Request: field \"{name}\" must be of type {fields[name]['types'][0]}")
        if ("html" in rich) == ("markdown" in rich):
            return self.error(400, "Bad Request: exactly one of html and markdown must be used")
        reader = RichReader()
        problem, text = check_html(rich.get("html", ""), reader)
        if problem:
            return self.error(400, "Bad Request: " + problem)
        # The documented limits of a rich message.
        if len(text) > 32768 or reader.blocks > 500 or reader.columns > 20:
            return self.error(400, "Bad Request: rich message is too long")
        if not text.strip():
            return self.error(400, "Bad Request: message text is empty")
        markup, problem = read_markup(params.get("reply_markup"))
        if problem:
            return self.error(400, "Bad Request: " + problem)
        chat = int(params["chat_id"])
        if chat in refuses_rich:
            return self.error(400, "Bad Request: RICH_MESSAGE_FORBIDDEN")
        with lock:
            stats["sendRichMessage"] = stats.get("sendRichMessage", 0) + 1
            message_id = next_message_id[0]
            next_message_id[0] += 1
            sent.append({"message_id": message_id, "chat_id": chat, "text": text.strip(), "rich_html": rich["html"],
                         "reply_parameters": params.get("reply_parameters"),
                         "message_thread_id": params.get("message_thread_id"), "reply_markup": markup,
                         "disable_notification": params.get("disable_notification", False), "time": time.time()})
            by_id[(chat, message_id)] = sent[-1]
            note_text((chat, message_id), sent[-1]["text"])
        self.reply(200, {"ok": True, "result": {"message_id": message_id, "date": int(time.time()),
                                                "chat": {"id": chat}, "rich_message": {"blocks": []}}})

    def api_sendDocument(self, params):
        if not str(params.get("chat_id", "")).lstrip("-").isdigit():
            return self.error(400, "Bad Request: chat not found")
        document = params.get("document")
        if not isinstance(document, dict) or not document.get("content"):
            return self.error(400, "Bad Request: there is no document in the request")
        if params.get("parse_mode") == "HTML":
            problem, _ = check_html(params.get("caption", ""))
            if problem:
                return self.error(400, "Bad Request: " + problem)
        with lock:
            message_id = next_message_id[0]
            next_message_id[0] += 1
            reply = params.get("reply_parameters")
            sent.append({"message_id": message_id, "chat_id": int(params["chat_id"]),
                         "text": params.get("caption", ""),
                         "document": {key: value for key, value in document.items() if key != "bytes"},
                         "reply_parameters": json.loads(reply) if isinstance(reply, str) else reply,
                         "time": time.time()})
            by_id[(int(params["chat_id"]), message_id)] = sent[-1]
            note_text((int(params["chat_id"]), message_id), sent[-1]["text"])
        self.reply(200, {"ok": True, "result": {"message_id": message_id, "date": int(time.time()),
                                                "chat": {"id": int(params["chat_id"])},
                                                "document": {"file_name": document["file_name"]}}})

    def read_caption(self, params):
        """A photo's caption and buttons as the API checks them: (caption after parsing, reply markup, error).
        A caption is at most 1,024 characters once parsed."""
        plain = params.get("caption", "")
        if params.get("parse_mode") == "HTML":
            problem, plain = check_html(plain)
            if problem:
                return None, None, "Bad Request: " + problem
        if utf16_length(plain) > 1024:
            return None, None, "Bad Request: message caption is too long"
        markup, problem = read_markup(params.get("reply_markup"))
        if problem:
            return None, None, "Bad Request: " + problem
        return plain, markup, None

    def api_sendPhoto(self, params):
        if not str(params.get("chat_id", "")).lstrip("-").isdigit():
            return self.error(400, "Bad Request: chat not found")
        chat = int(params["chat_id"])
        photo, uploaded = params.get("photo"), isinstance(params.get("photo"), dict)
        if uploaded:
            data = photo.get("bytes", b"")
            # A photo is a picture Telegram can read: here, a PNG with its header, within the documented 10 MB and
            # 10,000 pixels of width and height together, at most 20 times as long as wide.
            if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
                return self.error(400, "Bad Request: IMAGE_PROCESS_FAILED")
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            if len(data) > 10_000_000 or width + height > 10_000 or max(width, height) > 20 * min(width, height):
                return self.error(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        elif isinstance(photo, str) and photo in photos:
            data = photos[photo]
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        else:
            return self.error(400, "Bad Request: wrong file identifier/HTTP URL specified")
        caption = params.get("caption", "")
        plain, markup, problem = self.read_caption(params)
        if problem:
            return self.error(400, problem)
        effect = params.get("message_effect_id")
        if effect is not None and (chat < 0 or effect not in MESSAGE_EFFECTS):
            return self.error(400, "Bad Request: EFFECT_ID_INVALID")
        with lock:
            stats["sendPhoto"] = stats.get("sendPhoto", 0) + 1
            message_id = next_message_id[0]
            next_message_id[0] += 1
            file_id = photo if not uploaded else f"photo-{message_id}"
            photos[file_id] = data
            reply = params.get("reply_parameters")
            sent.append({"message_id": message_id, "chat_id": chat, "text": caption,
                         "parse_mode": params.get("parse_mode"),
                         "photo": {"file_id": file_id, "uploaded": uploaded, "width": width, "height": height,
                                   "size": len(data)},
                         "reply_parameters": json.loads(reply) if isinstance(reply, str) else reply,
                         "message_thread_id": params.get("message_thread_id"), "reply_markup": markup,
                         "disable_notification": params.get("disable_notification") in (True, "true"),
                         "message_effect_id": effect, "time": time.time()})
            by_id[(chat, message_id)] = sent[-1]
            note_text((chat, message_id), sent[-1]["text"])
        # Telegram answers with the sizes it made, the largest last; a thumbnail first.
        sizes = [{"file_id": f"{file_id}-thumb", "file_unique_id": f"{file_id}-t", "width": 90,
                  "height": max(1, 90 * height // width), "file_size": 1000},
                 {"file_id": file_id, "file_unique_id": file_id, "width": width, "height": height,
                  "file_size": len(data)}]
        self.reply(200, {"ok": True, "result": {"message_id": message_id, "date": int(time.time()),
                                                "chat": {"id": chat}, "caption": plain, "photo": sizes}})

    def api_editMessageCaption(self, params):
        if "inline_message_id" not in params and ("chat_id" not in params or "message_id" not in params):
            return self.error(400, "Bad Request: chat_id and message_id are required without inline_message_id")
        caption = params.get("caption", "")
        plain, markup, problem = self.read_caption(params)
        if problem:
            return self.error(400, problem)
        chat, message_id = int(params["chat_id"]), int(params["message_id"])
        with lock:
            original = by_id.get((chat, message_id))
            if original is None or "photo" not in original or (chat, message_id) in deleted_ids:
                return self.error(400, "Bad Request: message to edit not found")
            if original["text"] == caption and original.get("reply_markup") == markup:
                return self.error(400, "Bad Request: message is not modified: specified new message content and "
                                       "reply markup are exactly the same as a current content and reply markup "
                                       "of the message")
            stats["editMessageCaption"] = stats.get("editMessageCaption", 0) + 1
            original["text"], original["reply_markup"] = caption, markup
            note_text((chat, message_id), original["text"])
            edits.append({"chat_id": chat, "message_id": message_id, "text": caption, "reply_markup": markup,
                          "time": time.time()})
        self.reply(200, {"ok": True, "result": {"message_id": message_id, "date": int(time.time()),
                                                "chat": {"id": chat}, "caption": plain}})

    def api_getChatMember(self, params):
        chat, user = str(params.get("chat_id", "")), str(params.get("user_id", ""))
        if not chat.lstrip("-").isdigit() or not user.isdigit():
            return self.error(400, "Bad Request: invalid user_id specified")
        with lock:
            stats["getChatMember"] += 1
            if int(user) == 42:
                # The bot itself: an administrator with the rights a test gave it there.
                status = "administrator" if int(chat) in can_delete | can_tag else "member"
            else:
                status = "administrator" if int(user) in admins.get(int(chat), set()) else "member"
        member = {"status": status, "user": {"id": int(user), "is_bot": int(user) == 42, "first_name": "User"}}
        if status == "administrator":
            member.update({"can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
                           "can_delete_messages": int(user) == 42 and int(chat) in can_delete,
                           "can_manage_tags": int(user) == 42 and int(chat) in can_tag,
                           "can_manage_video_chats": False,
                           "can_restrict_members": False, "can_promote_members": False, "can_change_info": False,
                           "can_invite_users": True, "can_post_stories": False, "can_edit_stories": False,
                           "can_delete_stories": False})
        self.reply(200, {"ok": True, "result": member})

    def api_setChatMemberTag(self, params):
        chat, user, tag = params.get("chat_id"), params.get("user_id"), params.get("tag")
        if not str(chat).lstrip("-").isdigit():
            return self.error(400, "Bad Request: chat not found")
        with lock:
            if int(chat) not in can_tag:
                return self.error(400, "Bad Request: not enough rights to change chat member tags")
            if int(user) in admins.get(int(chat), set()):
                return self.error(400, "Bad Request: user is an administrator of the chat")
        if tag is not None and (len(tag) > 16 or any(ord(c) >= 0x2190 for c in tag)):
            # 0–16 characters, emoji not allowed: arrows, symbols and pictographs are refused with them.
            return self.error(400, "Bad Request: TAG_INVALID")
        with lock:
            stats["setChatMemberTag"] = stats.get("setChatMemberTag", 0) + 1
            tags.append({"chat_id": int(chat), "user_id": int(user), "tag": tag or None})
        self.reply(200, {"ok": True, "result": True})

    def api_setMessageReaction(self, params):
        if not str(params.get("chat_id", "")).lstrip("-").isdigit():
            return self.error(400, "Bad Request: chat not found")
        if not isinstance(params.get("message_id"), int):
            return self.error(400, "Bad Request: message to react not found")
        chosen = params.get("reaction", [])
        if isinstance(chosen, str):
            chosen = json.loads(chosen)
        if not isinstance(chosen, list) or len(chosen) > 1:
            return self.error(400, "Bad Request: REACTIONS_TOO_MANY")
        for reaction in chosen:
            if reaction.get("type") != "emoji" or reaction.get("emoji") not in REACTION_EMOJI:
                return self.error(400, "Bad Request: REACTION_INVALID")
        with lock:
            stats["setMessageReaction"] = stats.get("setMessageReaction", 0) + 1
            reactions.append({"chat_id": int(params["chat_id"]), "message_id": params["message_id"],
                              "emoji": chosen[0]["emoji"] if chosen else None})
        self.reply(200, {"ok": True, "result": True})

    def read_content(self, params):
        """The text and buttons of a sendMessage or editMessageText as the API checks them:
        (text after parsing, reply markup, error)."""
        plain, problem = self.read_text(params)
        if problem:
            return None, None, problem
        markup, problem = read_markup(params.get("reply_markup"))
        if problem:
            return None, None, "Bad Request: " + problem
        return plain, markup, None

    def read_text(self, params):
        """The text of a sendMessage or editMessageText as the API checks it: (text, error)."""
        text = params.get("text", "")
        options = params.get("link_preview_options")
        if isinstance(options, str):
            options = json.loads(options)
        if options is not None:
            # LinkPreviewOptions as documented: known fields only, the switches Boolean.
            known = {"is_disabled", "url", "prefer_small_media", "prefer_large_media", "show_above_text"}
            if not isinstance(options, dict) or not set(options) <= known or not all(
                    isinstance(value, bool) for key, value in options.items() if key != "url"):
                return None, "Bad Request: can't parse link preview options"
        if params.get("parse_mode") == "HTML":
            problem, plain = check_html(text)
            if problem:
                return None, "Bad Request: " + problem
        else:
            plain = text
        if utf16_length(plain) > 4096:
            return None, "Bad Request: message is too long"
        if not plain.strip():
            return None, "Bad Request: message text is empty"
        return plain, None

    def api_editMessageText(self, params):
        if "inline_message_id" not in params and ("chat_id" not in params or "message_id" not in params):
            return self.error(400, "Bad Request: chat_id and message_id are required without inline_message_id")
        plain, markup, problem = self.read_content(params)
        if problem:
            return self.error(400, problem)
        chat, message_id = int(params["chat_id"]), int(params["message_id"])
        with lock:
            original = by_id.get((chat, message_id))
            if original is None or "document" in original or (chat, message_id) in deleted_ids:
                return self.error(400, "Bad Request: message to edit not found")
            if original["text"] == params.get("text") and original.get("reply_markup") == markup:
                return self.error(400, "Bad Request: message is not modified: specified new message content and "
                                       "reply markup are exactly the same as a current content and reply markup "
                                       "of the message")
            stats["editMessageText"] += 1
            original["text"], original["reply_markup"] = params.get("text"), markup
            note_text((chat, message_id), original["text"])
            edits.append({"chat_id": chat, "message_id": message_id, "text": params.get("text"),
                          "reply_markup": markup, "time": time.time()})
        self.reply(200, {"ok": True, "result": {"message_id": message_id, "date": int(time.time()),
                                                "chat": {"id": chat}, "text": plain}})

    def api_deleteMessage(self, params):
        chat, message_id = int(params["chat_id"]), int(params["message_id"])
        with lock:
            if chat not in can_delete:
                return self.error(400, "Bad Request: message can't be deleted")
            deleted.append({"chat_id": chat, "message_id": message_id})
            deleted_ids.add((chat, message_id))
        self.reply(200, {"ok": True, "result": True})

    def api_answerInlineQuery(self, params):
        results = params.get("results")
        if isinstance(results, str):
            results = json.loads(results)
        button = params.get("button")
        if isinstance(button, str):
            button = json.loads(button)
        if len(results) > 50:
            return self.error(400, "Bad Request: RESULTS_TOO_MUCH")
        for result in results:
            if result.get("type") not in ("article", "photo") \
                    or not 1 <= len(str(result.get("id", "")).encode()) <= 64:
                return self.error(400, "Bad Request: RESULT_ID_INVALID")
            if result["type"] == "photo":
                # InlineQueryResultCachedPhoto: a photo this bot sent, by its file_id, with its caption.
                known = {"type", "id", "photo_file_id", "title", "description", "caption", "parse_mode"}
                if not set(result) <= known or result.get("photo_file_id") not in photos:
                    return self.error(400, "Bad Request: PHOTO_INVALID")
                if result.get("parse_mode") == "HTML":
                    problem, plain = check_html(result.get("caption", ""))
                    if problem:
                        return self.error(400, "Bad Request: " + problem)
                    if utf16_length(plain) > 1024:
                        return self.error(400, "Bad Request: MEDIA_CAPTION_TOO_LONG")
                continue
            content = result.get("input_message_content") or {}
            if not result.get("title") or not isinstance(content.get("message_text"), str):
                return self.error(400, "Bad Request: MESSAGE_EMPTY")
            if content.get("parse_mode") == "HTML":
                problem, _ = check_html(content["message_text"])
                if problem:
                    return self.error(400, "Bad Request: " + problem)
        if button is not None:
            start = button.get("start_parameter", "")
            if not button.get("text") or not (1 <= len(start) <= 64
                                              and all(c.isalnum() or c in "_-" for c in start)):
                return self.error(400, "Bad Request: BUTTON_START_PARAM_INVALID")
        with lock:
            if params["inline_query_id"] not in inline_queries:
                return self.error(400, "Bad Request: query is too old and response timeout expired or query ID is "
                                       "invalid")
            inline_queries.discard(params["inline_query_id"])
            inline_answers.append({"inline_query_id": params["inline_query_id"], "results": results,
                                   "button": button, "is_personal": params.get("is_personal"),
                                   "cache_time": params.get("cache_time")})
        self.reply(200, {"ok": True, "result": True})

    def api_answerCallbackQuery(self, params):
        if not params.get("callback_query_id"):
            return self.error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        with lock:
            answered.append(params["callback_query_id"])
        self.reply(200, {"ok": True, "result": True})

    # Control API

    # Controls that only read leave `changes` as it is: waiters would otherwise wake one another.
    READING = {"sent", "photo", "commands", "answered", "reactions", "edits", "deleted", "inline_answers", "count", "tags",
               "undocumented", "latencies", "stats", "changes"}

    def control(self, action, params):
        try:
            return self.controlling(action, params)
        finally:
            if action not in self.READING:
                with lock:
                    note_change()

    def controlling(self, action, params):
        global next_update_id
        with lock:
            if action == "updates":
                now = time.time()
                for update in params.get("updates", []):
                    if "inline_query" in update:
                        inline_queries.add(update["inline_query"]["id"])
                    message = update.get("message") or {}
                    available[(message.get("chat", {}).get("id"), message.get("message_id"))] = now
                    if "update_id" not in update:
                        update["update_id"] = next_update_id
                    next_update_id = max(next_update_id, update["update_id"]) + 1
                    updates.append(update)
                lock.notify_all()
                return self.reply(200, {"ok": True})
            if action == "sent":
                return self.reply(200, {"ok": True, "result": sent})
            if action == "photo":
                data = photos.get(params.get("file_id"))
                if data is None:
                    return self.reply(404, {"ok": False, "description": "no such photo"})
                return self.reply(200, {"ok": True, "result": {"png_base64": base64.b64encode(data).decode()}})
            if action == "commands":
                return self.reply(200, {"ok": True, "result": command_menus})
            if action == "answered":
                return self.reply(200, {"ok": True, "result": answered})
            if action == "reactions":
                return self.reply(200, {"ok": True, "result": reactions})
            if action == "edits":
                return self.reply(200, {"ok": True, "result": edits})
            if action == "deleted":
                return self.reply(200, {"ok": True, "result": deleted})
            if action == "inline_answers":
                return self.reply(200, {"ok": True, "result": inline_answers})
            if action == "count":
                needle = params.get("contains", "")
                if needle not in watched:
                    watched[needle] = {key for key, m in by_id.items() if needle in (m.get("text") or "")}
                return self.reply(200, {"ok": True, "result": len(watched[needle])})
            if action == "undocumented":
                return self.reply(200, {"ok": True, "result": sorted(set(undocumented))})
            if action == "can_delete":
                can_delete.add(int(params["chat_id"]))
                return self.reply(200, {"ok": True})
            if action == "refuse_rich":
                refuses_rich.add(int(params["chat_id"]))
                return self.reply(200, {"ok": True})
            if action == "can_tag":
                can_tag.add(int(params["chat_id"]))
                return self.reply(200, {"ok": True})
            if action == "tags":
                return self.reply(200, {"ok": True, "result": tags})
            if action == "fail":
                failures.setdefault(params["method"], []).extend([params] * int(params.get("count", 1)))
                return self.reply(200, {"ok": True})
            if action == "hold":
                with lock:
                    held.setdefault(params["method"], threading.Event())
                return self.reply(200, {"ok": True})
            if action == "release":
                with lock:
                    event = held.pop(params["method"], None)
                if event:
                    event.set()
                return self.reply(200, {"ok": True})
            if action == "drop":
                drops[params["method"]] = drops.get(params["method"], 0) + int(params.get("count", 1))
                return self.reply(200, {"ok": True})
            if action == "latencies":
                # A reply to the update's message answers it; else (a guess answered by its live board) the
                # first message or edit in its chat after it arrived.
                answered_at = {}
                for message in sent:
                    reply = message.get("reply_parameters") or {}
                    key = (message["chat_id"], reply.get("message_id"))
                    if key in available:
                        answered_at.setdefault(key, message["time"])
                outputs = {}
                for output in sent + edits:
                    outputs.setdefault(output["chat_id"], []).append(output["time"])
                result = []
                for key, pushed in available.items():
                    if key not in answered_at:
                        later = [t for t in outputs.get(key[0], []) if t >= pushed]
                        if later:
                            answered_at[key] = min(later)
                    if key in answered_at:
                        result.append(answered_at[key] - pushed)
                return self.reply(200, {"ok": True, "result": result})
            if action == "admins":
                admins[int(params["chat_id"])] = set(int(u) for u in params.get("user_ids", []))
                return self.reply(200, {"ok": True})
            if action == "stats":
                return self.reply(200, {"ok": True, "result": {**stats, "pending": len(updates)}})
            if action == "changes":
                # Answers once the state has changed since `since` (at once for -1), or at the timeout: how
                # tests wait for the bot, instead of asking again and again.
                since = int(params.get("since", -1))
                deadline = time.monotonic() + min(float(params.get("timeout", 1)), 30)
                while changes[0] <= since and time.monotonic() < deadline:
                    lock.wait(deadline - time.monotonic())
                return self.reply(200, {"ok": True, "result": changes[0]})
        self.reply(404, {"ok": False})


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # The default backlog of 5 overflows when several clients connect at once; the kernel then drops the SYN
    # and the client waits a second to retry, which would show up as a one-second stall in measurements.
    request_queue_size = 128


server = Server(("127.0.0.1", 0), Handler)
print(f"PORT {server.server_address[1]}", flush=True)


def stop_when_the_parent_ends():
    # The test process holds our standard input open: a server a test forgot to stop ends with the run, instead
    # of keeping the run's output open (and `swift test` waiting for it) for ever.
    sys.stdin.buffer.read()
    os._exit(0)


threading.Thread(target=stop_when_the_parent_ends, daemon=True).start()
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
