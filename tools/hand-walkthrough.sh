#!/bin/bash
# The worked session of docs/api.md, "The hand in progress": run against a fresh database
# (manage.py migrate; manage.py runserver 127.0.0.1:8425), it prints what the doc shows.
API=${API:-http://127.0.0.1:8425/api/v1}
J='Content-Type: application/json'
curl -s -X POST $API/accounts/ -H "$J" -d '{"username": "xiaowang", "password": "mahjong-friday-night"}' >/dev/null
TOKEN=$(curl -s -X POST $API/auth/token/ -H "$J" -d '{"username": "xiaowang", "password": "mahjong-friday-night"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
A="Authorization: Token $TOKEN"
curl -s -X POST $API/groups/ -H "$A" -H "$J" -d '{"name": "周五麻将"}' >/dev/null
for n in 小王 小李 阿美 老张; do curl -s -X POST $API/groups/1/players/ -H "$A" -H "$J" -d "{\"name\": \"$n\"}" >/dev/null; done
curl -s -X POST $API/groups/1/sessions/ -H "$A" -H "$J" -d '{"name": "第一场", "players": [1, 2, 3, 4]}' >/dev/null
short() { python3 -c '
import json,sys
b=json.load(sys.stdin)
def cut(h): return {k: h[k] for k in ("number","dealer","events","notes","revision","can_redo")} | {"net": h["preview"]["net"], "finished": h["preview"]["finished"]}
if "round" in b: print(json.dumps({"round": {k: b["round"][k] for k in ("id","position")} | {"net": b["round"]["result"]["net"]}, "hand": cut(b["hand"])}, ensure_ascii=False))
elif "hand" in b: print(json.dumps({k: b[k] for k in ("field","detail")} | {"hand": cut(b["hand"])}, ensure_ascii=False))
elif "preview" in b: print(json.dumps(cut(b), ensure_ascii=False))
else: print(json.dumps(b, ensure_ascii=False))'; }
echo '$ curl -s -i $API/sessions/1/hand/ -H "$A"'
curl -s -i $API/sessions/1/hand/ -H "$A" | grep -E '^(HTTP|ETag)'
curl -s $API/sessions/1/hand/ -H "$A"; echo
echo '$ curl -s -o /dev/null -w "%{http_code}\n" $API/sessions/1/hand/ -H "$A" -H '"'"'If-None-Match: "hand-0"'"'"
curl -s -o /dev/null -w "%{http_code}\n" $API/sessions/1/hand/ -H "$A" -H 'If-None-Match: "hand-0"'
echo '$ curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '"'"'{"event": {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}, "revision": 0, "note": "小李 暗杠"}'"'"
curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '{"event": {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}, "revision": 0, "note": "小李 暗杠"}' | short
echo '# a second phone that still saw revision 0'
echo '$ curl -s -w " %{http_code}\n" -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '"'"'{"event": {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 2}]}, "revision": 0}'"'"
curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '{"event": {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 2}]}, "revision": 0}' -w '\n%{http_code}\n' | { read body; read code; echo "$body" | short; echo "$code"; }
echo '# an event the engine refuses: 400 at its index, nothing changes'
echo '$ curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '"'"'{"event": {"type": "win", "from": 1, "winners": [{"player": 1, "fan": 2}]}, "revision": 1}'"'"
curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '{"event": {"type": "win", "from": 1, "winners": [{"player": 1, "fan": 2}]}, "revision": 1}'; echo
echo '$ curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '"'"'{"event": {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 2}, {"player": 3, "fan": 1}]}, "revision": 1, "note": "小王点炮 一炮双响"}'"'"
curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -d '{"event": {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 2}, {"player": 3, "fan": 1}]}, "revision": 1, "note": "小王点炮 一炮双响"}' | short
echo '$ curl -s -X POST $API/sessions/1/hand/undo/ -H "$A" -H "$J" -d '"'"'{"revision": 2}'"'"
curl -s -X POST $API/sessions/1/hand/undo/ -H "$A" -H "$J" -d '{"revision": 2}' | short
echo '$ curl -s -X POST $API/sessions/1/hand/redo/ -H "$A" -H "$J" -d '"'"'{"revision": 3}'"'"
curl -s -X POST $API/sessions/1/hand/redo/ -H "$A" -H "$J" -d '{"revision": 3}' | short
echo '# the third win finishes the 血战 hand: 201, the round recorded, the next hand dealt by 阿美 (the first winner)'
echo '$ curl -s -w " %{http_code}\n" -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -H "Idempotency-Key: tap-3" -d '"'"'{"event": {"type": "win", "from": null, "winners": [{"player": 1, "fan": 3}]}, "revision": 4}'"'"
curl -s -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -H "Idempotency-Key: tap-3" -d '{"event": {"type": "win", "from": null, "winners": [{"player": 1, "fan": 3}]}, "revision": 4}' -w '\n%{http_code}\n' | { read body; read code; echo "$body" | short; echo "$code"; }
echo '# the same tap retried: the same answer, no second round'
echo '$ curl -s -i -X POST $API/sessions/1/hand/events/ ... (the same request) | grep -E "HTTP|Idempotent"'
curl -s -i -X POST $API/sessions/1/hand/events/ -H "$A" -H "$J" -H "Idempotency-Key: tap-3" -d '{"event": {"type": "win", "from": null, "winners": [{"player": 1, "fan": 3}]}, "revision": 4}' | grep -E "^(HTTP|Idempotent)"
echo '$ curl -s $API/sessions/1/totals/ -H "$A"'
curl -s $API/sessions/1/totals/ -H "$A"; echo
echo '$ curl -s -X PATCH $API/sessions/1/hand/ -H "$A" -H "$J" -d '"'"'{"void_suits": ["m", "p", "s", "m"], "revision": 5}'"'"
curl -s -X PATCH $API/sessions/1/hand/ -H "$A" -H "$J" -d '{"void_suits": ["m", "p", "s", "m"], "revision": 5}' | python3 -c 'import json,sys; b=json.load(sys.stdin); print(json.dumps({k: b[k] for k in ("number","dealer","void_suits","revision")}))'
