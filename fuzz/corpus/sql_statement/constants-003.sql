SELECT 'a' || 'b', lower('ABC'), upper('x'), length('héllo')
