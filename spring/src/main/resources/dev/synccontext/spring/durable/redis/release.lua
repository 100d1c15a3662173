-- Gives up a session's ownership if this token holds it; the snapshot stays with its expiry.
-- KEYS[1] the session's hash. ARGV[1] the token. Returns 1 if released, 0 if the token did not own it.
local session = redis.call('HMGET', KEYS[1], 'owner', 'token')
if session[1] and session[2] == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'owner', 'epoch')
  return 1
end
return 0
