-- Takes a session for a node, if nobody owns it under a live node lease; one atomic step.
-- KEYS[1] the session's hash, KEYS[2] the caller's node lease key, KEYS[3] the token sequence.
-- ARGV[1] the caller's node id, ARGV[2] its lease epoch, ARGV[3] the idle timeout in ms,
-- ARGV[4] the node lease key prefix (an owner's lease key is the prefix and its node id).
-- Returns {1, token, previous token} acquired; {0, owner's token, owner's node id} owned elsewhere;
-- {-1} the caller's own lease is not live.
-- The session hash: owner, epoch (the owner's lease epoch; both absent once released), token (the last issued),
-- data and dataToken (the last accepted snapshot and the token that wrote it).
if redis.call('GET', KEYS[2]) ~= ARGV[2] then
  return {-1}
end
local session = redis.call('HMGET', KEYS[1], 'owner', 'epoch', 'token')
local previous = tonumber(session[3]) or 0
if session[1] then
  if session[1] == ARGV[1] and session[2] == ARGV[2] then
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    return {1, previous, previous}
  end
  if redis.call('GET', ARGV[4] .. session[1]) == session[2] then
    return {0, previous, session[1]}
  end
end
local token = redis.call('INCR', KEYS[3])
-- A lost sequence (evicted, or Redis restarted without persistence) restarts at 1: never go below the session's
-- own last token while its record lives.
if token <= previous then
  token = previous + 1
  redis.call('SET', KEYS[3], string.format('%d', token))
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'epoch', ARGV[2], 'token', string.format('%d', token))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, token, previous}
