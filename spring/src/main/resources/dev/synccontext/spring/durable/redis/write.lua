-- The fenced write: stores a snapshot only if the token is the session's current one and the lease it was
-- granted under is live, compared and written in one atomic step.
-- KEYS[1] the session's hash. ARGV[1] the token, ARGV[2] the snapshot bytes, ARGV[3] the idle timeout in ms,
-- ARGV[4] the node lease key prefix.
-- Returns 1 accepted, -1 stale (another token is current), -2 not owned (no record, or released),
-- -3 lease expired (the token is current, its node lease is not live).
local session = redis.call('HMGET', KEYS[1], 'owner', 'epoch', 'token')
if not session[3] then
  return -2
end
if session[3] ~= ARGV[1] then
  return -1
end
if not session[1] then
  return -2
end
if redis.call('GET', ARGV[4] .. session[1]) ~= session[2] then
  return -3
end
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'dataToken', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
